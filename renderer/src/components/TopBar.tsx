/** One navigation link of the top bar. */
export interface NavLink {
  href: string;
  label: string;
  active: boolean;
  badge?: number;
}

/** Props of TopBar: links plus the language and theme switches (labels already translated). */
export interface TopBarProps {
  title: string;
  links: NavLink[];
  locale: string;
  locales: readonly { value: string; label: string }[];
  languageLabel: string;
  onLocale: (value: string) => void;
  themeLabel: string;
  themeToggleLabel: string;
  onToggleTheme: () => void;
  /** "Signed in as …" when a person signed in (absent for the gateway token). */
  signedInAs?: string;
}

/** The app's top bar. */
export function TopBar(props: TopBarProps) {
  return (
    <header className="topbar">
      <strong className="brand">{props.title}</strong>
      <nav>
        {props.links.map((link) => (
          <a key={link.href} href={link.href} className={link.active ? 'active' : undefined}>
            {link.label}
            {link.badge ? (
              <span className="count" data-testid="pending-count">
                {link.badge}
              </span>
            ) : null}
          </a>
        ))}
      </nav>
      <label className="switch">
        {props.languageLabel}
        <select
          aria-label={props.languageLabel}
          value={props.locale}
          onChange={(e) => props.onLocale(e.target.value)}
          data-testid="locale-switch"
        >
          {props.locales.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" title={props.themeLabel} onClick={props.onToggleTheme} data-testid="theme-switch">
        {props.themeToggleLabel}
      </button>
      {props.signedInAs && (
        <span className="signed-in" data-testid="signed-in">
          {props.signedInAs}
        </span>
      )}
    </header>
  );
}
