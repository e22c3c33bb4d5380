import type { Browser, BrowserContext } from 'playwright-core';
import { compileWriteOrigins } from '../../runtime/policy/effects/writeOrigins.js';
import { compileHostPatterns } from '../../runtime/policy/hostPattern.js';
import { ToolError } from '../../runtime/tools/types.js';
import { BrowserSession, CONTEXT_OPTIONS, type BrowserPolicy } from './browserSession.js';
import { CHROMIUM_FLAGS, findChromium, playwrightChromium } from './chromium.js';
import type { PageStates } from './pageState.js';

/** How the host browser backend is set up. */
export interface BrowserHostOptions {
  /** Hosts every task's pages may reach (the policy's networkAllow). */
  networkAllow: readonly string[];
  /** Origins whose state-changing requests pass the effect gate without asking (policy.allowWrites). */
  allowWrites?: readonly string[];
  /** Chromium binary; default: discovered (AGENT_DESK_CHROMIUM, /usr/bin/chromium, Chrome channels). */
  executablePath?: string;
  headless?: boolean;
  /** A persistent profile folder (config `browser.profileDir`): tasks share its cookies and storage. */
  profileDir?: string;
  /** Where pages of waiting tasks are saved, so another process resumes them on the same page. */
  pageStates?: PageStates;
  /**
   * The process stops the runtime itself on SIGINT/SIGTERM/SIGHUP (`serve`): Playwright must not
   * close Chromium on those first, or a waiting task's page is lost while it is being saved.
   */
  processOwnsSignals?: boolean;
}

/**
 * The host browser backend: one Chromium process launched on first use, one isolated context
 * per task (keyed by the task workspace), closed when the task ends.
 */
export class BrowserHost {
  private browser: Promise<Browser> | undefined;
  private profile: Promise<BrowserContext> | undefined;
  private readonly sessions = new Map<string, Promise<BrowserSession>>();
  /** Sessions that finished opening, for synchronous lookups while classifying calls. */
  private readonly opened = new Map<string, BrowserSession>();
  private readonly policy: BrowserPolicy;
  private readonly saving = new Set<Promise<void>>();

  constructor(private readonly options: BrowserHostOptions) {
    this.policy = {
      allow: compileHostPatterns(options.networkAllow, 'policy.networkAllow'),
      allowWrites: compileWriteOrigins(options.allowWrites ?? []),
    };
  }

  /** Whether a Chromium can be found (the tools report unavailable with the install hint otherwise). */
  chromiumProblem(): string | undefined {
    try {
      if (this.options.executablePath === undefined) findChromium();
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** The task's session, opened on first use. */
  session(workspace: string): Promise<BrowserSession> {
    let session = this.sessions.get(workspace);
    if (!session) {
      const opening =
        this.options.profileDir === undefined
          ? this.launch().then((browser) => BrowserSession.open(browser, workspace, this.policy))
          : this.launchProfile().then((context) => BrowserSession.openShared(context, workspace, this.policy));
      session = opening.then(async (opened) => {
        // A page saved by a process that stopped while this task waited comes back first.
        await this.options.pageStates?.restore(opened);
        this.opened.set(workspace, opened);
        return opened;
      });
      session.catch(() => this.sessions.delete(workspace));
      this.sessions.set(workspace, session);
    }
    return session;
  }

  /** The session of a workspace if one is open (classification must not launch anything). */
  peek(workspace: string): BrowserSession | undefined {
    return this.opened.get(workspace);
  }

  /**
   * Saves a waiting task's page (URL, cookies and storage, changed form fields) for the process
   * that resumes it; nothing when the task has no open page.
   */
  savePage(workspace: string): void {
    const session = this.opened.get(workspace);
    if (!session || !this.options.pageStates) return;
    const saving = this.options.pageStates
      .save(session)
      .catch((error: Error) => process.emitWarning(`browser page not saved: ${error.message}`));
    this.saving.add(saving);
    void saving.finally(() => this.saving.delete(saving));
  }

  /** Drops a finished task's saved page. */
  forgetPage(workspace: string): void {
    this.options.pageStates?.forget(workspace);
  }

  /** Closes one task's context. */
  async closeSession(workspace: string): Promise<void> {
    const session = this.sessions.get(workspace);
    this.sessions.delete(workspace);
    this.opened.delete(workspace);
    await (await session?.catch(() => undefined))?.close();
  }

  /** Resolves when the page saves in progress have landed (or failed with a warning). */
  async savesDone(): Promise<void> {
    await Promise.all([...this.saving]);
  }

  /** Closes every context and the browser (after pending page saves). */
  async close(): Promise<void> {
    await this.savesDone();
    await Promise.all([...this.sessions.keys()].map((w) => this.closeSession(w)));
    const browser = await this.browser?.catch(() => undefined);
    const profile = await this.profile?.catch(() => undefined);
    this.browser = this.profile = undefined;
    await browser?.close().catch(() => undefined);
    await profile?.close().catch(() => undefined);
  }

  /** Launches Chromium once; a failed launch is retried on the next call. */
  launch(): Promise<Browser> {
    this.browser ??= this.started(async (executablePath) =>
      (await playwrightChromium()).launch({
        executablePath,
        headless: this.options.headless ?? true,
        args: [...CHROMIUM_FLAGS],
        ...this.signals(),
      }),
    );
    this.browser.catch(() => (this.browser = undefined));
    return this.browser;
  }

  /** Launches Chromium on the configured profile folder once (one process per profile). */
  private launchProfile(): Promise<BrowserContext> {
    const profileDir = this.options.profileDir!;
    this.profile ??= this.started(async (executablePath) =>
      (await playwrightChromium()).launchPersistentContext(profileDir, {
        executablePath,
        headless: this.options.headless ?? true,
        args: [...CHROMIUM_FLAGS],
        ...CONTEXT_OPTIONS,
        ...this.signals(),
      }),
    );
    this.profile.catch(() => (this.profile = undefined));
    return this.profile;
  }

  /** Playwright's own signal handlers, off when the process stops the runtime itself (it closes Chromium on exit still). */
  private signals(): { handleSIGINT: boolean; handleSIGTERM: boolean; handleSIGHUP: boolean } {
    const playwright = !this.options.processOwnsSignals;
    return { handleSIGINT: playwright, handleSIGTERM: playwright, handleSIGHUP: playwright };
  }

  /** Runs a launch with the discovered Chromium; a failure becomes a tool error naming the binary. */
  private async started<T>(launch: (executablePath: string) => Promise<T>): Promise<T> {
    const executablePath = this.options.executablePath ?? findChromium();
    try {
      return await launch(executablePath);
    } catch (error) {
      throw new ToolError(
        `Chromium at ${executablePath} did not start: ${(error as Error).message.split('\n')[0]}`,
        false,
        'browser_launch',
      );
    }
  }
}
