/** The template databases of the suite's PostgreSQL run (test/support/pg_global.ts makes them). */
export const PG_TEMPLATES = {
  /** The schema migrated, no rows: for a server given fixtures of its own. */
  migrated: 'dipswitch_migrated',
  /** The schema migrated and the default fixtures seeded: what most test servers start from. */
  seeded: 'dipswitch_seeded',
} as const;
