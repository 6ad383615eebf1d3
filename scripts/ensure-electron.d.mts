// Types for ensure-electron.mjs (plain JavaScript, so that it runs on any Node).
export declare const LOCAL_ELECTRON_ENV: 'ELECTRON_EXEC_PATH';
export declare function downloadFailedMessage(cause?: string): string;
export declare function isErrorReport(text: string): boolean;
export declare function ensureElectron(deps: {
  electronDir: string;
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  read: (path: string) => string;
  runInstaller: (env: Record<string, string | undefined>) => Promise<{ status: number | null; stderr: string }>;
  log: (line: string) => void;
  error: (line: string) => void;
}): Promise<number>;
