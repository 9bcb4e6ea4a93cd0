import type { Page } from 'playwright-core';

/**
 * Words of a link to where a site keeps its passkeys: security and sign-in settings first, then settings and
 * the account page. Compiled in the page with "i"; multilingual like engine/form-keywords.ts.
 */
const SETTINGS_LINKS = [
  String.raw`pass.?key|security.?key|webauthn|zugangsschlüssel|clave de acceso|clé d.accès|パスキー|패스키`,
  String.raw`security|sign.?in (methods|options)|login (methods|options)|two.?(factor|step)|2fa|sicherheit|seguridad|sécurité|sicurezza|segurança|beveiliging|セキュリティ|安全|보안`,
  String.raw`settings|preferences|einstellungen|configuración|ajustes|paramètres|impostazioni|configurações|instellingen|設定|设置|설정`,
  String.raw`account|profile|konto|cuenta|compte|conta|profil|アカウント|账户|账号|계정`,
];
const NEVER = String.raw`log ?out|sign ?out|log ?off|abmelden|cerrar sesi|déconnexion|ログアウト|退出|delete|close account|löschen|eliminar|supprimer`;

/** Same-origin links on the page to security / settings / account pages, most likely first (at most 6). */
export async function findSettingsLinks(page: Page): Promise<string[]> {
  const links = await page
    .evaluate(
      ({ tiers, never }) => {
        const no = new RegExp(never, 'i');
        const res = tiers.map((t) => new RegExp(t, 'i'));
        const out: { href: string; tier: number }[] = [];
        for (const a of Array.from(document.querySelectorAll('a[href]'))) {
          const el = a as HTMLAnchorElement;
          const url = new URL(el.href, location.href);
          if (url.origin !== location.origin || url.href === location.href) continue;
          const text = `${el.innerText} ${el.getAttribute('aria-label') ?? ''} ${url.pathname}`;
          if (no.test(text)) continue;
          const tier = res.findIndex((re) => re.test(text));
          if (tier >= 0) out.push({ href: url.href.split('#')[0], tier });
        }
        return out.sort((a, b) => a.tier - b.tier).map((l) => l.href);
      },
      { tiers: SETTINGS_LINKS, never: NEVER },
    )
    .catch(() => [] as string[]);
  return [...new Set(links)].slice(0, 6);
}

/** Until no request the page started is in flight for 500 ms (bounded by `maxMs`). */
export async function waitForQuietPage(page: Page, maxMs = 5000): Promise<void> {
  let inflight = 0;
  let lastChange = Date.now();
  const up = () => {
    inflight++;
    lastChange = Date.now();
  };
  const down = () => {
    inflight = Math.max(0, inflight - 1);
    lastChange = Date.now();
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  try {
    const until = Date.now() + maxMs;
    while (Date.now() < until && (inflight > 0 || Date.now() - lastChange < 500))
      await new Promise((r) => setTimeout(r, 100));
  } finally {
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}
