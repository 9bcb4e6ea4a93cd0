/** Frame sizes of the resolution names templates and models use (16:9). */
export const RESOLUTIONS: Readonly<Record<string, { width: number; height: number }>> = {
  '480p': { width: 854, height: 480 },
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
  '4k': { width: 3840, height: 2160 },
};

/** Unknown names render at 720p (a template may name a resolution only a hosted model knows). */
export function resolutionSize(name: string): { width: number; height: number } {
  return RESOLUTIONS[name] ?? RESOLUTIONS['720p']!;
}
