// Types of scripts/bundle-size.mjs (plain JavaScript, so `node scripts/measure-bundle.mjs` runs without tsx).

export interface FileSize {
  /** Path inside the dist directory, e.g. assets/index-abc123.js */
  file: string;
  raw: number;
  gzip: number;
}

export interface Measurement {
  route: string;
  method: 'chromium' | 'vite-manifest';
  dist: string;
  /** Largest first. */
  files: FileSize[];
  total: { raw: number; gzip: number };
  budgetKb: number;
  withinBudget: boolean;
}

export const ROOT: string;
export const DEFAULT_DIST: string;
export const SIGN_IN_ROUTE: string;
export const BUDGET_KB: number;
export const CHROMIUM_PATH: string;

export function resolveDist(dir: string | undefined): string;
export function scriptsLoadedByChromium(dist: string): Promise<string[]>;
export function scriptsFromManifest(dist: string): string[];
export function describeFiles(dist: string, files: readonly string[]): FileSize[];
export function measureSignInRoute(options?: {
  dist?: string;
  method?: 'auto' | 'chromium' | 'manifest';
  onFallback?: (error: unknown) => void;
}): Promise<Measurement>;
export function precacheFiles(dist: string): FileSize[];
