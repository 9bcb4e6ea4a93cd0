export const HEADLESS_BUNDLE: string;
export function buildHeadlessServer(): Promise<string>;
export function headlessServerArgs(args?: string[]): string[];
export function runHeadlessServer(args: string[]): Promise<void>;
