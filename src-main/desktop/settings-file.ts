import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/files/atomic-write.ts';

/** The desktop app's own preferences (not data: the data lives in the database). */
export const desktopSettingsSchema = z.object({
  window: z
    .object({
      x: z.number().int(),
      y: z.number().int(),
      width: z.number().int().min(400),
      height: z.number().int().min(300),
      maximized: z.boolean(),
    })
    .optional(),
  localApi: z.object({ enabled: z.boolean(), port: z.number().int().min(1024).max(65535) }).default({ enabled: false, port: 4100 }),
  companyId: z.string().optional(),
});

export type DesktopSettings = z.output<typeof desktopSettingsSchema>;

/**
 * Reads settings.json; a missing, unreadable or hand-broken file falls back to the
 * defaults (the app must always start), keeping whatever parts are still valid.
 */
export function readDesktopSettings(file: string): DesktopSettings {
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    raw = {};
  }
  const parsed = desktopSettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const partial = (typeof raw === 'object' && raw ? raw : {}) as Record<string, unknown>;
  const keep = Object.fromEntries(
    Object.entries(partial).filter(([k, v]) => desktopSettingsSchema.shape[k as keyof DesktopSettings]?.safeParse(v).success),
  );
  return desktopSettingsSchema.parse(keep);
}

export function writeDesktopSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, Buffer.from(`${JSON.stringify(desktopSettingsSchema.parse(settings), null, 2)}\n`));
}
