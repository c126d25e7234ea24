// Applies the embedded drizzle-kit migrations (migrations.generated.ts) at start. The files are
// compiled into the executable, so a copied binary migrates a new database with no folder beside it.
import type { Database } from "bun:sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { SQL } from "bun";
import type { EmbeddedMigration } from "./migrations.generated.ts";

export const migrationsTable = "__drizzle_migrations";

function toMigrationMeta(migrations: EmbeddedMigration[]): MigrationMeta[] {
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

/**
 * drizzle's SQLite migrator, step for step (its table, its rule: every migration newer than the
 * last one recorded, in one transaction, each recorded with its hash), run on the client
 * directly: through drizzle's query builder the 91 statements of a new store cost about 5 ms
 * more of a first start.
 */
export function migrateSqlite(client: Database, migrations: EmbeddedMigration[]): void {
  client.run(`CREATE TABLE IF NOT EXISTS "${migrationsTable}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
  const last = client.query(`SELECT id, hash, created_at FROM "${migrationsTable}" ORDER BY created_at DESC LIMIT 1`).values()[0];
  client.run("BEGIN");
  try {
    for (const migration of toMigrationMeta(migrations)) {
      if (last && Number(last[2]) >= migration.folderMillis) continue;
      for (const statement of migration.sql) client.prepare(statement).run();
      client.run(`INSERT INTO "${migrationsTable}" ("hash", "created_at") VALUES(?, ?)`, [migration.hash, migration.folderMillis]);
    }
    client.run("COMMIT");
  } catch (error) {
    client.run("ROLLBACK");
    throw error;
  }
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
