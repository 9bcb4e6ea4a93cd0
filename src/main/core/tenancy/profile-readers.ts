// Which organizations' API keys may read the person's own browser profiles (docs/security.md#the-browser-profiles-are-the-persons). The profiles belong to
// the person at this machine, not to whoever holds a key: `browser-profiles:read` says a key may ask, this list says
// whether its organization may be answered. Only the person changes it (desktop Settings, CLI `browser-profiles
// allow|deny`); no HTTP route or MCP tool does, so no key can add its own organization. Here in tenancy, as a
// property of organizations: the routes (login/profiles) check it and the desktop's Settings (desktop/) set it.
import { SettingsRepo } from '../db/settings.repo.js';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import type { Org, OrgsService } from './orgs.service.js';

/** The `settings` row holding the list: a JSON array of organization ids. Absent: the default (below). */
export const PROFILE_READERS_SETTING = 'browser_profiles.orgs';

/** The organization the first run makes, which the desktop window starts in (create-core.ts DEFAULT_ORG). */
const FIRST_RUN_ORG = 'default';

export interface ProfileReaders {
  /** The organizations whose keys may read the profiles. */
  orgs: Org[];
  /** False: nobody chose yet, and the list is the default (the install's first organization). */
  chosen: boolean;
}

export class ProfileAccess {
  private readonly settings: SettingsRepo;

  constructor(
    db: Db,
    private readonly orgs: Pick<OrgsService, 'list' | 'get' | 'findByName'>,
  ) {
    this.settings = new SettingsRepo(db);
  }

  /**
   * The person's list, or by default the install's own organization: the one the first run made (the desktop
   * window's), else the oldest. A later organization (another team's agents) is never in it until the person says so.
   */
  readers(): ProfileReaders {
    const stored = this.stored();
    if (stored) return { orgs: stored.flatMap((id) => this.orgs.get(id) ?? []), chosen: true };
    const first = this.orgs.findByName(FIRST_RUN_ORG) ?? this.orgs.list()[0];
    return { orgs: first ? [first] : [], chosen: false };
  }

  allows(orgId: string): boolean {
    return this.readers().orgs.some((o) => o.id === orgId);
  }

  /** Lets the organization's keys (with browser-profiles:read) read the profiles; the default stays in the list. */
  allow(orgId: string): ProfileReaders {
    const ids = this.readers().orgs.map((o) => o.id);
    if (!ids.includes(orgId)) ids.push(orgId);
    this.settings.set(PROFILE_READERS_SETTING, JSON.stringify(ids));
    return this.readers();
  }

  /** Takes the organization off the list (the default one too: an empty list lets no key read them). */
  deny(orgId: string): ProfileReaders {
    const ids = this.readers()
      .orgs.map((o) => o.id)
      .filter((id) => id !== orgId);
    this.settings.set(PROFILE_READERS_SETTING, JSON.stringify(ids));
    return this.readers();
  }

  /** A 403 for a key of an organization the person did not allow, saying how they allow it. */
  require(orgId: string): void {
    if (this.allows(orgId)) return;
    const name = this.orgs.get(orgId)?.name ?? orgId;
    throw new AppError(
      403,
      'organization_not_allowed',
      `The person at this machine has not allowed the organization "${name}" to read their browser profiles. ` +
        'They allow it in the desktop app (Settings, Organizations and credits: "Browser profiles") or with: ' +
        `npm run -s cli -- browser-profiles allow --org "${name}"`,
      { reason: 'organization_not_allowed', org_id: orgId },
    );
  }

  private stored(): string[] | null {
    const text = this.settings.get(PROFILE_READERS_SETTING);
    if (text === null) return null;
    try {
      const ids: unknown = JSON.parse(text);
      // Unreadable: nobody is allowed rather than everybody (the person's choice cannot be known).
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }
}
