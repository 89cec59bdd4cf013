import { DEFAULT_USER_IMAGE_QUOTA, type UserImageQuota } from '@gpu/shared';
import { and, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { appMeta } from '../../../platform/db/meta.tables.ts';
import { hosts } from '../../hosts/hosts.tables.ts';
import { instances } from '../instances.tables.ts';
import { type UserImageStatus, userImages } from '../user-images.tables.ts';

export type UserImageRow = typeof userImages.$inferSelect;
export type UserImageWithPlace = UserImageRow & { hostName: string; sourceInstanceName: string };

/** The app_meta key of the per-user quota (platform setting). */
export const USER_IMAGE_QUOTA_KEY = 'user_image_quota';
/** Images that hold (or will hold) storage: counted against the quota. */
const COUNTED: UserImageStatus[] = ['SAVING', 'AVAILABLE'];

/** SQL of users' saved images (images/). */
export function createUserImagesRepository({ db }: { db: DbOrTx }) {
  const placed = () =>
    db
      .select({ img: userImages, hostName: hosts.name, sourceInstanceName: instances.name })
      .from(userImages)
      .innerJoin(hosts, eq(hosts.id, userImages.hostId))
      .innerJoin(instances, eq(instances.id, userImages.sourceInstanceId));
  const flat = (r: { img: UserImageRow; hostName: string; sourceInstanceName: string }) => ({
    ...r.img,
    hostName: r.hostName,
    sourceInstanceName: r.sourceInstanceName,
  });

  return {
    async listOwned(userId: number): Promise<UserImageWithPlace[]> {
      const rows = await placed()
        .where(and(eq(userImages.userId, userId), ne(userImages.status, 'DELETING')))
        .orderBy(desc(userImages.createdAt), desc(userImages.id));
      return rows.map(flat);
    },

    async findOwned(id: number, userId: number): Promise<UserImageWithPlace | undefined> {
      const [row] = await placed().where(and(eq(userImages.id, id), eq(userImages.userId, userId)));
      return row ? flat(row) : undefined;
    },

    async find(id: number): Promise<UserImageRow | undefined> {
      const [row] = await db.select().from(userImages).where(eq(userImages.id, id));
      return row;
    },

    async lock(id: number): Promise<UserImageRow | undefined> {
      const [row] = await db.select().from(userImages).where(eq(userImages.id, id)).for('update');
      return row;
    },

    /** Shared: creates from it run side by side; a delete (FOR UPDATE) waits for them. */
    async lockShared(id: number): Promise<UserImageRow | undefined> {
      const [row] = await db.select().from(userImages).where(eq(userImages.id, id)).for('share');
      return row;
    },

    async byRef(ref: string): Promise<UserImageRow | undefined> {
      const [row] = await db.select().from(userImages).where(eq(userImages.ref, ref));
      return row;
    },

    /** Serialises one user's saves (quota checks) without locking the user row others read. */
    async lockUser(userId: number) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext('user-images'), ${userId}::int)`);
    },

    /** Images counted against the quota and their known size in bytes (`except` left out). */
    async usage(userId: number, except?: number) {
      const [row] = await db
        .select({
          count: sql<number>`count(*)::int`,
          bytes: sql<number>`coalesce(sum(${userImages.sizeBytes}), 0)::float8`,
        })
        .from(userImages)
        .where(
          and(
            eq(userImages.userId, userId),
            inArray(userImages.status, COUNTED),
            except === undefined ? undefined : ne(userImages.id, except),
          ),
        );
      return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
    },

    async insert(values: typeof userImages.$inferInsert): Promise<UserImageRow> {
      const [row] = await db.insert(userImages).values(values).returning();
      return row as UserImageRow;
    },

    async update(id: number, set: Partial<typeof userImages.$inferInsert>) {
      await db
        .update(userImages)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(userImages.id, id));
    },

    /** Progress of a save still under way (a deleted or finished one is left alone). */
    async progress(id: number, progress: number) {
      await db
        .update(userImages)
        .set({ progress, updatedAt: sql`now()` })
        .where(and(eq(userImages.id, id), eq(userImages.status, 'SAVING')));
    },

    async remove(id: number) {
      await db.delete(userImages).where(eq(userImages.id, id));
    },

    /** Whether an instance is being created from this image now (its delete waits). */
    async creatingFrom(ref: string) {
      const [row] = await db
        .select({ id: instances.id })
        .from(instances)
        .where(and(eq(instances.image, ref), eq(instances.status, 'CREATING')))
        .limit(1);
      return Boolean(row);
    },

    /** Extends the claim of an instance job that runs long (a save), while it is still ours. */
    async extendClaim(instanceId: number, until: Date) {
      await db
        .update(instances)
        .set({ claimedUntil: until })
        .where(and(eq(instances.id, instanceId), eq(instances.status, 'SAVING_IMAGE')));
    },

    /** Claims deletions nobody holds (a lease, as instance jobs do). */
    async claimDeleting(now: Date, until: Date, limit: number): Promise<UserImageRow[]> {
      const free = or(isNull(userImages.claimedUntil), lt(userImages.claimedUntil, now));
      const ids = db
        .select({ id: userImages.id })
        .from(userImages)
        .where(and(eq(userImages.status, 'DELETING'), free))
        .limit(limit);
      return db
        .update(userImages)
        .set({ claimedUntil: until })
        .where(and(inArray(userImages.id, ids), eq(userImages.status, 'DELETING'), free))
        .returning();
    },

    async quota(): Promise<UserImageQuota> {
      const [row] = await db.select().from(appMeta).where(eq(appMeta.key, USER_IMAGE_QUOTA_KEY));
      return { ...DEFAULT_USER_IMAGE_QUOTA, ...((row?.value as Partial<UserImageQuota>) ?? {}) };
    },

    async setQuota(quota: UserImageQuota) {
      await db
        .insert(appMeta)
        .values({ key: USER_IMAGE_QUOTA_KEY, value: quota })
        .onConflictDoUpdate({ target: appMeta.key, set: { value: quota } });
    },
  };
}
