import type { Person, Role } from '../../contract/index.js';
import { toJson } from './jsonColumn.js';
import type { SqlSession } from './sql/sqlPort.js';

interface PersonRow {
  subject: string;
  name: string;
  email: string | null;
  roles: string;
  groups: string;
  disabled_at: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

const toPerson = (r: PersonRow): Person => ({
  subject: r.subject,
  name: r.name,
  ...(r.email !== null && { email: r.email }),
  roles: JSON.parse(r.roles) as Role[],
  groups: JSON.parse(r.groups) as string[],
  ...(r.disabled_at !== null && { disabledAt: r.disabled_at }),
  createdAt: r.created_at,
  ...(r.last_sign_in_at !== null && { lastSignInAt: r.last_sign_in_at }),
});

/** What a sign-in tells about a person (the provider's claims, mapped to roles). */
export interface SignedIn {
  subject: string;
  name: string;
  email?: string;
  roles: readonly Role[];
  groups: readonly string[];
}

/** People who signed in, keyed by the provider's subject. */
export class PeopleRepo {
  constructor(private readonly db: SqlSession) {}

  /**
   * Records a sign-in: name, e-mail, groups and roles as the provider says now. A removed person
   * stays removed (their row keeps `disabled_at`): the caller refuses them.
   */
  async signedIn(p: SignedIn, at: string): Promise<Person> {
    await this.db.run(
      `INSERT INTO people (subject, name, email, roles, groups, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (subject) DO UPDATE SET name = excluded.name, email = excluded.email, roles = excluded.roles,
         groups = excluded.groups, last_sign_in_at = excluded.last_sign_in_at`,
      [p.subject, p.name, p.email ?? null, toJson([...p.roles]), toJson([...p.groups]), at, at],
    );
    return (await this.get(p.subject))!;
  }

  async get(subject: string): Promise<Person | undefined> {
    const row = await this.db.get<PersonRow>('SELECT * FROM people WHERE subject = ?', [subject]);
    return row && toPerson(row);
  }

  async list(): Promise<Person[]> {
    return (await this.db.all<PersonRow>('SELECT * FROM people ORDER BY name, subject')).map(toPerson);
  }

  /** Sets roles and/or removes (disables) or restores a person; undefined when there is no such person. */
  async update(subject: string, change: { roles?: readonly Role[]; disabledAt?: string | null }): Promise<Person | undefined> {
    if (change.roles !== undefined)
      await this.db.run('UPDATE people SET roles = ? WHERE subject = ?', [toJson([...change.roles]), subject]);
    if (change.disabledAt !== undefined)
      await this.db.run('UPDATE people SET disabled_at = ? WHERE subject = ?', [change.disabledAt, subject]);
    return this.get(subject);
  }

  /** True the first time `digest` is offered (an ID token taken once); forgotten entries past their expiry are swept. */
  async firstUse(digest: string, expiresAt: string, now: string): Promise<boolean> {
    await this.db.run('DELETE FROM sign_in_replays WHERE expires_at < ?', [now]);
    const info = await this.db.run('INSERT INTO sign_in_replays (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING', [
      digest,
      expiresAt,
    ]);
    return info.changes === 1;
  }
}
