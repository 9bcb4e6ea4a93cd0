// What a template variable is in the local renderer's layout (its role): the headline it sets in large type, the
// picture it moves, the palette it colours with. Prompts go to model providers; the local renderer lays out roles.
// Pure and shared: the core's renderer and the editor's role picker guess the same role for a variable with none.

/** Layout roles, in the order the editor lists them. */
export const VARIABLE_ROLES = [
  'headline',
  'subtitle',
  'body',
  'subject',
  'background',
  'logo',
  'palette',
  'style',
  'motion',
  'voice_over',
  'music',
  'captions',
  'none',
] as const;
export type VariableRole = (typeof VARIABLE_ROLES)[number];

/** What each role does, in the words the editor shows. */
export const ROLE_LABELS: Record<VariableRole, string> = {
  headline: 'Headline (large type)',
  subtitle: 'Subtitle (under the headline)',
  body: 'Body text (smaller, quoted)',
  subject: 'Subject (the main picture or clip, moved)',
  background: 'Background (full frame, behind everything)',
  logo: 'Logo (small, in a corner)',
  palette: 'Colour palette (words or #hex colours)',
  style: 'Style (words that tint the colours)',
  motion: 'Camera move (push in, pan left, orbit…)',
  voice_over: 'Voice-over (heard, with a small waveform)',
  music: 'Music (heard, with bars that follow it)',
  captions: 'Captions (burned in at their times)',
  none: 'Not shown (prompt only)',
};

/** Which roles fit which variable type (the editor offers only these). */
export const ROLES_FOR_TYPE: Record<string, readonly VariableRole[]> = {
  text: ['headline', 'subtitle', 'body', 'palette', 'style', 'motion', 'none'],
  image: ['subject', 'background', 'logo', 'none'],
  video: ['subject', 'background', 'none'],
  audio: ['voice_over', 'music', 'none'],
  captions: ['captions', 'none'],
};

export interface RoleGuessInput {
  key: string;
  type: string;
  label?: string;
  slot?: string;
  role?: string;
}

const TEXT_GUESSES: [RegExp, VariableRole][] = [
  [/palette|colou?rs?\b|brand_?colou?r/i, 'palette'],
  [/camera|motion|move|movement|framing|shot/i, 'motion'],
  [/style|look|mood|theme|tone|aesthetic|setting/i, 'style'],
  [/tagline|subtitle|subhead|slogan|strapline|caption/i, 'subtitle'],
  [/title|headline|product|name|brand|heading|scene|topic|hook/i, 'headline'],
  [/pitch|body|script|quote|description|text|message|says|line/i, 'body'],
];

/** True when `role` is one of VARIABLE_ROLES. */
export function isVariableRole(role: unknown): role is VariableRole {
  return typeof role === 'string' && (VARIABLE_ROLES as readonly string[]).includes(role);
}

/**
 * The role a variable has: its own when set (and fitting its type), else a guess from its key, label, slot and type.
 * Text: palette / motion / style / subtitle / headline / body words in the key or label, else headline (the first
 * thing a template asks for is usually what it is about). Images: background/backdrop, logo, else subject. Video:
 * subject. Audio: music or voice-over by its words (music by default for an `audio` slot without voice words).
 */
export function roleOf(v: RoleGuessInput): VariableRole {
  const allowed = ROLES_FOR_TYPE[v.type] ?? ['none'];
  if (isVariableRole(v.role) && allowed.includes(v.role)) return v.role;
  const words = `${v.key} ${v.label ?? ''}`.replace(/_/g, ' ');
  switch (v.type) {
    case 'text':
      return TEXT_GUESSES.find(([re]) => re.test(words))?.[1] ?? 'headline';
    case 'image':
      if (/background|backdrop|scenery|wallpaper/i.test(words)) return 'background';
      if (/logo|brand ?mark|watermark|icon/i.test(words)) return 'logo';
      return 'subject';
    case 'video':
      return /background|backdrop/i.test(words) ? 'background' : 'subject';
    case 'audio':
      return /voice|narrat|speech|speak|dialog|vo\b/i.test(words) ? 'voice_over' : 'music';
    case 'captions':
      return 'captions';
    default:
      return 'none';
  }
}
