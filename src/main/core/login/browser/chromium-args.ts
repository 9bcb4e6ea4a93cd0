// The command line of the login browser: what Chromium is started with, and why each switch is there.

/**
 * Chromium features Playwright (playwright-core 1.65) disables with its own `--disable-features`.
 * Chromium honours only the LAST `--disable-features` switch of a command line (a later one
 * replaces an earlier one, it does not add to it), so ours repeats Playwright's list; without it
 * those features would silently come back. test/unit/login/browser/login-browser-pool.test.ts compares this
 * list with the installed playwright-core.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Features we turn off on top of Playwright's. Each login runs in a fresh context with one page,
 * so per-page and per-context extras are paid on every login, concurrently up to maxContexts.
 */
export const EXTRA_DISABLED_FEATURES = [
  // Chromium >= 151 pre-renders the address-bar popup (chrome://omnibox-popup.top-chrome, two
  // WebUI documents) for every window, headless too, and every Playwright page is a window: one
  // more renderer process (~150 MB RSS, ~50 ms to start) per login, for a UI nobody ever sees.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  // Keeps a spare renderer warm for the next navigation. It is made for the context that navigated
  // last, and every login uses a fresh context, so it is never used: a wasted process start (CPU
  // on small machines) and ~75 MB RSS.
  'SpareRendererForSitePerProcess',
];

/**
 * Features Playwright (playwright-core 1.65) enables with its own `--enable-features` (the same rule: only the last
 * switch counts, so a list of ours repeats them; the unit test compares it with the installed playwright-core).
 * `PLAYWRIGHT_LEGACY_SCREENSHOT` turns the first off, as in Playwright.
 */
export function playwrightEnabledFeatures(env: NodeJS.ProcessEnv = process.env): string[] {
  return [
    env.PLAYWRIGHT_LEGACY_SCREENSHOT ? '' : 'CDPScreenshotNewSurface',
    'SkipListAccountsWithoutGaiaCookies',
  ].filter(Boolean);
}

/**
 * Without the sandbox, Chromium's GPU and network-service processes add no security boundary (each runs with all of
 * the user's rights, like the browser process), so there they run inside the browser process, as Chromium does on
 * low-memory Android devices: two processes fewer, ~15 MB less PSS with 8 logins at once (bench/results/history.md#performance-round-4-2026-11-27-night-the-same-fast-machine-as-round-3).
 * WebGL is still there (SwiftShader, in the browser process). What is lost is crash isolation: a crash of either
 * takes the browser down, and the pool launches a new one for the next login. A sandboxed browser keeps them apart.
 */
function unsandboxedProcessArgs(): string[] {
  return [
    '--in-process-gpu',
    `--enable-features=${[...playwrightEnabledFeatures(), 'NetworkServiceInProcess2'].join(',')}`,
  ];
}

/**
 * Default args keep a warm headless Chromium quiet and cheap. `--no-sandbox` is added only where
 * Chromium's sandbox cannot work (decideSandbox: root, or no user namespaces and no setuid helper) – a desktop
 * user keeps the sandbox.
 * Site isolation stays on. Playwright itself already passes --disable-extensions and
 * --disable-dev-shm-usage. Not used on purpose: --renderer-process-limit (contexts never share
 * renderers, and with site isolation it is only a soft limit) and --js-flags=--max-old-space-size
 * (does not shrink small pages, but would crash the renderer of a heavy single-page app).
 */
export function defaultLaunchArgs(env: { sandbox: boolean }): string[] {
  const args = [
    // A person's browser, to the page: without it Chromium sets navigator.webdriver under automation, the one signal
    // by which the open-source BotD detector (and walls built like it) refused every login of this browser. The
    // other client checks (user agent and client hints without "Headless", window.chrome, plugins, languages,
    // permissions, window size, round-trip time) already read as a normal browser: bot-wall.test.ts checks each.
    '--disable-blink-features=AutomationControlled',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...EXTRA_DISABLED_FEATURES].join(',')}`,
  ];
  if (!env.sandbox) args.unshift('--no-sandbox', ...unsandboxedProcessArgs());
  return args;
}

/**
 * Every request of a page goes to the outbound proxy: `<-loopback>` removes Chromium's implicit bypass
 * rules, which would otherwise send localhost, 127/8, [::1], 169.254/16 and fe80::/10 direct (Chromium's
 * net/docs/proxy.md), i.e. exactly the metadata and loopback addresses the policy exists for. WebRTC may
 * use UDP only through a proxy, which an HTTP proxy never offers: no STUN/TURN packet goes around it.
 * Appended after any configured args: Chromium takes the last value of a repeated switch.
 */
export function proxyArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}
