// Applies the embedded drizzle-kit migrations (migrations.generated.ts) at start. The files are
// compiled into the executable, so a copied binary migrates a new database with no folder beside it.
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { SQL } from "bun";
import type { EmbeddedMigration } from "./migrations.generated.ts";

export const migrationsTable = "__drizzle_migrations";

export function toMigrationMeta(migrations: EmbeddedMigration[]): MigrationMeta[] {
  return migrations.map((migration) => ({
    sql: migration.sql.split("--> statement-breakpoint"),
    bps: true,
    folderMillis: migration.when,
    hash: new Bun.CryptoHasher("sha256").update(migration.sql).digest("hex"),
  }));
}

type MigratingDb = {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: object): unknown };
  session: unknown;
};

export function migrateSqlite(db: unknown, migrations: EmbeddedMigration[]): void {
  const target = db as MigratingDb;
  target.dialect.migrate(toMigrationMeta(migrations), target.session, { migrationsTable });
}

/**
 * Several instances may start at once against one PostgreSQL; an advisory lock held on a
 * reserved connection makes them migrate one after another instead of racing.
 */
export async function migratePg(db: unknown, client: SQL, migrations: EmbeddedMigration[]): Promise<void> {
  const target = db as MigratingDb;
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(hashtext('switchyard:migrate'))`;
    try {
      await target.dialect.migrate(toMigrationMeta(migrations), target.session, {
        migrationsTable,
        migrationsSchema: "drizzle",
      });
    } finally {
      await reserved`select pg_advisory_unlock(hashtext('switchyard:migrate'))`;
    }
  } finally {
    reserved.release();
  }
}
