/**
 * The environment variables cronform itself reads: its database (`DATABASE_URL`), its settings
 * (`CRONFORM_*`) and libpq's connection defaults (`PG*`). A job handed one of them from the runner's
 * environment gets cronform's own database, so plan flags it (CF512) and import renames it.
 */
export function isCronformConfiguration(name: string): boolean {
  return /^(DATABASE_URL|CRONFORM_.*|PG[A-Z_]+)$/.test(name.toUpperCase());
}
