#!/usr/bin/env python3
"""What the rollups cost when SQLite computes them set-based from the stored event rows.

Usage:
  scripts/setbased_rollups.py STORE [--dir DIR] [--exposure-batch N]

STORE is a store written by `report ingest` (it is only read). The script creates a new
database in DIR with the rollup tables of STORE's schema and the store's settings (page size,
WAL, synchronous = FULL, 256 MB of cache), attaches STORE, and fills every rollup table with one
`INSERT ... SELECT ... GROUP BY` (window functions for "first" and "newest") over the event
tables, all in one transaction, as an ingest that stores keys and event rows only and brings
the rollups up to date afterwards would. It prints the seconds of each statement and of the
commit, the CPU time (user + sys) of the whole recomputation, and whether every table holds
exactly the rows `report ingest` wrote (compared both ways with EXCEPT; rows whose counters
are all zero are left out of the comparison, as readers ignore them).

With --exposure-batch N it then does the same for the exposure rollups (`exposure_firsts`,
`exposure_groups`, `exposure_group_members`) the way an ingest would apply them after each
batch: for every N exposure events in arrival order (rowid), about one 20,000-record batch's
worth, the slice's pairs are merged into the stored ones and only the new members of each group
are written and counted, a handful of statements per slice. A stored pair that gets an earlier
exposure in a later slice (moving to other groups) is not handled; the comparison would show it.

It prints figures and asserts nothing; the figures are in docs/performance.md.
"""
import argparse
import os
import resource
import sqlite3
import time


def newest(table, partition, order, columns, where=''):
    """The `columns` of the rows of `table` that come last in `order` within each `partition`
    (SQL); only the columns needed are carried through the sort."""
    return (f'(SELECT * FROM (SELECT {partition}, {columns}, row_number() OVER (PARTITION BY {partition} '
            f'ORDER BY {order}) AS n_ FROM src.{table} {where}) WHERE n_ = 1)')


READING_ORDER = 'ts_ms DESC, coalesce(sequence, 0) DESC, event_id DESC'
ORDER_COLUMNS = 'ts_ms, sequence, event_id'

# Each rollup table and the statement that fills it from the event tables (or from rollup
# tables filled before it). Dimension values as ExposureDimension stores them: a missing
# value is the empty blob.
STEPS = [
    ('reading_daily', """
        INSERT INTO reading_daily SELECT user_id, local_date, material_id, sum(active_seconds), count(*)
        FROM src.reading_events GROUP BY user_id, local_date, material_id"""),
    ('reading_daily_all', """
        INSERT INTO reading_daily_all SELECT local_date, material_id, sum(active_seconds), count(*)
        FROM src.reading_events GROUP BY local_date, material_id"""),
    ('material_state', f"""
        INSERT INTO material_state
        SELECT a.user_id, a.material_id, a.events, a.seconds, a.completions,
            l.ts_ms, coalesce(l.sequence, 0), l.event_id, l.target_type,
            t.title, t.ts_ms, iif(t.event_id IS NULL, NULL, coalesce(t.sequence, 0)), t.event_id,
            p.position, p.progress, p.ts_ms, iif(p.event_id IS NULL, NULL, coalesce(p.sequence, 0)), p.event_id
        FROM (SELECT user_id, material_id, count(*) AS events, sum(active_seconds) AS seconds,
                  sum(event_type = 'marked_as_read') AS completions
              FROM src.reading_events GROUP BY user_id, material_id) AS a
        JOIN {newest('reading_events', 'user_id, material_id', READING_ORDER, ORDER_COLUMNS + ', target_type')} AS l
            USING (user_id, material_id)
        LEFT JOIN {newest('reading_events', 'user_id, material_id', READING_ORDER, ORDER_COLUMNS + ', title',
                          'WHERE title IS NOT NULL')} AS t USING (user_id, material_id)
        LEFT JOIN {newest('reading_events', 'user_id, material_id', READING_ORDER, ORDER_COLUMNS + ', position, progress',
                          'WHERE position IS NOT NULL')} AS p USING (user_id, material_id)"""),
    ('reading_user_state', f"""
        INSERT INTO reading_user_state SELECT user_id, ts_ms, coalesce(sequence, 0), event_id, tz_minutes
        FROM {newest('reading_events', 'user_id', READING_ORDER, ORDER_COLUMNS + ', tz_minutes')}"""),
    ('event_user_counts', """
        INSERT INTO event_user_counts SELECT event_name, user_id, count(*)
        FROM src.observability_events GROUP BY event_name, user_id"""),
    ('impression_exposures', """
        INSERT INTO impression_exposures SELECT DISTINCT user_id, impression_id, model_info, feed_position
        FROM src.exposure_events WHERE impression_id IS NOT NULL"""),
    ('impression_reactions', f"""
        INSERT INTO impression_reactions
        SELECT user_id, impression_id, ts_ms, id, feedback_type, reason, model_info, feed_position
        FROM {newest('feedback_events', 'user_id, impression_id', 'ts_ms DESC, id DESC',
                     'ts_ms, id, feedback_type, reason, model_info, feed_position')}"""),
    ('dislike_groups', """
        INSERT INTO dislike_groups
        SELECT model_info, feed_position, sum(exposed), sum(feedback_only), sum(likes), sum(dislikes) FROM (
            SELECT model_info, feed_position, 1 AS exposed, 0 AS feedback_only, 0 AS likes, 0 AS dislikes
            FROM impression_exposures
            UNION ALL
            SELECT model_info, feed_position, 0, NOT EXISTS (
                    SELECT 1 FROM impression_exposures AS x WHERE x.user_id = r.user_id
                    AND x.impression_id = r.impression_id AND x.model_info IS r.model_info
                    AND x.feed_position IS r.feed_position),
                feedback_type = 'like', feedback_type = 'dislike'
            FROM impression_reactions AS r)
        GROUP BY model_info, feed_position"""),
    ('dislike_reasons', """
        INSERT INTO dislike_reasons SELECT model_info, feed_position, reason, count(*) FROM impression_reactions
        WHERE feedback_type = 'dislike' AND reason IS NOT NULL GROUP BY model_info, feed_position, reason"""),
    ('rollup_counters', """
        INSERT INTO rollup_counters SELECT 'impressions_in_several_groups', count(*) FROM (
            SELECT user_id, impression_id FROM (
                SELECT user_id, impression_id, model_info, feed_position FROM impression_exposures
                UNION SELECT user_id, impression_id, model_info, feed_position FROM impression_reactions)
            GROUP BY user_id, impression_id HAVING count(*) > 1)"""),
    ('exposure_firsts', f"""
        INSERT INTO exposure_firsts
        SELECT page_instance_id, item_id, ts_ms, 0, event_id, user_id, local_date, page_id, model_info,
            feed_position, events
        FROM (SELECT page_instance_id, item_id, ts_ms, event_id, user_id, local_date, page_id, model_info,
                  feed_position, row_number() OVER pair AS n_,
                  count(*) OVER (PARTITION BY page_instance_id, item_id) AS events
              FROM src.exposure_events WINDOW pair AS (PARTITION BY page_instance_id, item_id ORDER BY ts_ms, event_id))
        WHERE n_ = 1"""),
    ('(pairs by group, temporary)', """
        INSERT INTO pair_groups
        SELECT 'day' AS dimension, local_date AS group_value, item_id, user_id, events FROM exposure_firsts
        UNION ALL SELECT 'page', coalesce(page_id, X''), item_id, user_id, events FROM exposure_firsts
        UNION ALL SELECT 'item', item_id, NULL, user_id, events FROM exposure_firsts
        UNION ALL SELECT 'model', coalesce(model_info, X''), item_id, user_id, events FROM exposure_firsts
        UNION ALL SELECT 'position', coalesce(feed_position, X''), item_id, user_id, events FROM exposure_firsts"""),
    ('exposure_groups', """
        INSERT INTO exposure_groups
        SELECT dimension, group_value, count(*), sum(events - 1), count(DISTINCT item_id), count(DISTINCT user_id)
        FROM pair_groups GROUP BY dimension, group_value"""),
    ('exposure_group_members', """
        INSERT INTO exposure_group_members
        SELECT DISTINCT dimension, group_value, 'item', item_id FROM pair_groups WHERE item_id IS NOT NULL
        UNION SELECT DISTINCT dimension, group_value, 'user', user_id FROM pair_groups"""),
]

# The exposure rollups of the exposure events with rowid in [?1, ?2], applied to the stored ones.
BATCH_STEPS = [
    ('slice pairs', """
        INSERT INTO slice_pairs
        SELECT page_instance_id, item_id, ts_ms, event_id, user_id, local_date, page_id, model_info, feed_position,
            events, EXISTS (SELECT 1 FROM exposure_firsts AS f
                            WHERE f.page_instance_id = p.page_instance_id AND f.item_id = p.item_id)
        FROM (SELECT page_instance_id, item_id, ts_ms, event_id, user_id, local_date, page_id, model_info,
                  feed_position, row_number() OVER pair AS n_,
                  count(*) OVER (PARTITION BY page_instance_id, item_id) AS events
              FROM src.exposure_events WHERE rowid BETWEEN ?1 AND ?2
              WINDOW pair AS (PARTITION BY page_instance_id, item_id ORDER BY ts_ms, event_id)) AS p
        WHERE n_ = 1"""),
    ('stored pairs keep their groups', """
        UPDATE slice_pairs AS p SET (user_id, local_date, page_id, model_info, feed_position) = (
            SELECT user_id, local_date, page_id, model_info, feed_position FROM exposure_firsts AS f
            WHERE f.page_instance_id = p.page_instance_id AND f.item_id = p.item_id)
        WHERE stored"""),
    ('exposure_firsts', """
        INSERT INTO exposure_firsts
        SELECT page_instance_id, item_id, ts_ms, 0, event_id, user_id, local_date, page_id, model_info,
            feed_position, events FROM slice_pairs WHERE true
        ON CONFLICT (page_instance_id, item_id) DO UPDATE SET events = events + excluded.events"""),
    ('pairs by group', """
        INSERT INTO pair_groups
        SELECT 'day', local_date, item_id, user_id, events, stored FROM slice_pairs
        UNION ALL SELECT 'page', coalesce(page_id, X''), item_id, user_id, events, stored FROM slice_pairs
        UNION ALL SELECT 'item', item_id, NULL, user_id, events, stored FROM slice_pairs
        UNION ALL SELECT 'model', coalesce(model_info, X''), item_id, user_id, events, stored FROM slice_pairs
        UNION ALL SELECT 'position', coalesce(feed_position, X''), item_id, user_id, events, stored FROM slice_pairs"""),
    ('group counts', """
        INSERT INTO exposure_groups
        SELECT dimension, group_value, sum(NOT stored), sum(events - NOT stored), 0, 0 FROM pair_groups
        GROUP BY dimension, group_value
        ON CONFLICT (dimension, group_value) DO UPDATE SET exposures = exposures + excluded.exposures,
            duplicates = duplicates + excluded.duplicates"""),
    ('new members', """
        INSERT INTO new_members
        SELECT * FROM (SELECT DISTINCT dimension, group_value, 'item' AS kind, item_id AS member FROM pair_groups
                       WHERE item_id IS NOT NULL AND NOT stored
                       UNION SELECT DISTINCT dimension, group_value, 'user', user_id FROM pair_groups WHERE NOT stored) AS m
        WHERE NOT EXISTS (SELECT 1 FROM exposure_group_members AS g WHERE g.dimension = m.dimension
                          AND g.group_value = m.group_value AND g.kind = m.kind AND g.member = m.member)"""),
    ('exposure_group_members', 'INSERT INTO exposure_group_members SELECT * FROM new_members'),
    ('unique counts', """
        INSERT INTO exposure_groups
        SELECT dimension, group_value, 0, 0, sum(kind = 'item'), sum(kind = 'user') FROM new_members
        GROUP BY dimension, group_value
        ON CONFLICT (dimension, group_value) DO UPDATE SET unique_items = unique_items + excluded.unique_items,
            unique_users = unique_users + excluded.unique_users"""),
    ('emptying the slice tables', None),
]
EXPOSURE_TABLES = ['exposure_firsts', 'exposure_groups', 'exposure_group_members']

# Rows whose counters are all zero (a group every pair or impression left) are not compared.
NONZERO = {
    'dislike_groups': 'WHERE exposed OR feedback_only OR likes OR dislikes',
    'exposure_groups': 'WHERE exposures OR duplicates OR unique_items OR unique_users',
    'rollup_counters': "WHERE name = 'impressions_in_several_groups' AND value != 0",
}


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def scratch(store, directory, tables):
    """A new database in `directory` with the `tables` of `store` (and their indexes), the
    store's settings, and the store attached read-only as `src`."""
    target = os.path.join(directory, 'setbased.sqlite')
    for suffix in ('', '-wal', '-shm'):
        if os.path.exists(target + suffix):
            os.remove(target + suffix)
    src = sqlite3.connect(f'file:{store}?mode=ro', uri=True)
    page_size = src.execute('PRAGMA page_size').fetchone()[0]
    schema = [sql for (sql,) in src.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND (name IN ({0}) OR tbl_name IN ({0})) ORDER BY rowid"
        .format(', '.join('?' * len(tables))), tables + tables)]
    src.close()
    db = sqlite3.connect(target, isolation_level=None)
    for pragma in (f'page_size = {page_size}', 'journal_mode = WAL', 'synchronous = FULL', 'cache_size = -262144'):
        db.execute(f'PRAGMA {pragma}')
    for sql in schema:
        db.execute(sql)
    db.execute('ATTACH ? AS src', (f'file:{store}?mode=ro',))
    return db, target


def compare(db, tables):
    """Prints, table by table, whether `db` holds the rows of the attached store; true if all."""
    same = True
    for table in tables:
        keep = NONZERO.get(table, '')
        stored = f'SELECT * FROM src.{table} {keep}'
        computed = f'SELECT * FROM main.{table} {keep}'
        missing = db.execute(f'SELECT count(*) FROM ({stored} EXCEPT {computed})').fetchone()[0]
        extra = db.execute(f'SELECT count(*) FROM ({computed} EXCEPT {stored})').fetchone()[0]
        rows = db.execute(f'SELECT count(*) FROM ({computed})').fetchone()[0]
        same = same and missing == 0 and extra == 0
        verdict = ('the same rows' if missing == extra == 0 else
                   f'DIFFERENT: {missing:,} stored rows not computed, {extra:,} computed rows not stored')
        print(f'  {table:30} {rows:9,} rows; {verdict}')
    print('every table holds the rows report ingest wrote' if same else 'SOME TABLES DIFFER')
    return same


def per_batch(store, directory, batch):
    """The exposure rollups applied slice by slice of `batch` exposure events (BATCH_STEPS)."""
    db, target = scratch(store, directory, EXPOSURE_TABLES)
    db.execute('CREATE TEMP TABLE slice_pairs (page_instance_id, item_id, ts_ms, event_id, user_id, local_date, '
               'page_id, model_info, feed_position, events, stored)')
    db.execute('CREATE TEMP TABLE pair_groups (dimension, group_value, item_id, user_id, events, stored)')
    db.execute('CREATE TEMP TABLE new_members (dimension, group_value, kind, member)')
    last = db.execute('SELECT max(rowid) FROM src.exposure_events').fetchone()[0] or 0
    print(f'\nexposure rollups applied every {batch:,} exposure events ({last:,}) into {target}')
    spent = {name: 0.0 for name, _ in BATCH_STEPS}
    c0, t0 = cpu(), time.perf_counter()
    for low in range(1, last + 1, batch):
        db.execute('BEGIN')
        for name, sql in BATCH_STEPS:
            s = time.perf_counter()
            if sql:
                db.execute(sql, (low, low + batch - 1) if '?1' in sql else ())
            else:
                for table in ('slice_pairs', 'pair_groups', 'new_members'):
                    db.execute(f'DELETE FROM temp.{table}')
            spent[name] += time.perf_counter() - s
        s = time.perf_counter()
        db.execute('COMMIT')
        spent['commit'] = spent.get('commit', 0.0) + time.perf_counter() - s
    wall, used = time.perf_counter() - t0, cpu() - c0
    for name, seconds in spent.items():
        print(f'  {name:30} {seconds:6.2f} s')
    print(f'exposure rollups, {-(-last // batch)} batches: {wall:.2f} s wall, {used:.2f} s CPU (user + sys)')
    compare(db, EXPOSURE_TABLES)
    db.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('store')
    ap.add_argument('--dir', default='bench-out')
    ap.add_argument('--exposure-batch', type=int, help='also apply the exposure rollups every N exposure events')
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    tables = [name for name, _ in STEPS if not name.startswith('(')]
    src = sqlite3.connect(f'file:{args.store}?mode=ro', uri=True)
    events = sum(src.execute(f'SELECT count(*) FROM {t}').fetchone()[0]
                 for t in ('reading_events', 'feedback_events', 'exposure_events', 'observability_events'))
    src.close()
    db, target = scratch(args.store, args.dir, tables)
    print(f'rollups of {args.store} ({events:,} events) computed set-based into {target}')
    c0, t0 = cpu(), time.perf_counter()
    # No declared types: a group value keeps its own type (text, integer or the empty blob).
    db.execute('CREATE TEMP TABLE pair_groups (dimension, group_value, item_id, user_id, events)')
    db.execute('BEGIN')
    for name, sql in STEPS:
        s = time.perf_counter()
        db.execute(sql)
        print(f'  {name:30} {time.perf_counter() - s:6.2f} s')
    s = time.perf_counter()
    db.execute('DROP TABLE temp.pair_groups')
    db.execute('COMMIT')
    print(f'  {"commit":30} {time.perf_counter() - s:6.2f} s')
    wall, used = time.perf_counter() - t0, cpu() - c0
    print(f'all rollups: {wall:.2f} s wall, {used:.2f} s CPU (user + sys), {events / wall:,.0f} events/s')
    compare(db, tables)
    db.close()
    if args.exposure_batch:
        per_batch(args.store, args.dir, args.exposure_batch)


if __name__ == '__main__':
    main()
