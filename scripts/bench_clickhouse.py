#!/usr/bin/env python3
"""Benchmark of the ClickHouse backend against ClickHouse's own insert rate, in one run, on a
server of its own. Prints figures, asserts nothing.

Usage:
  scripts/bench_clickhouse.py [--bin .build/release/report] [--sizes 1M,10M] [--runs 5]
                              [--data bench-out] [--dir bench-out/clickhouse-server]
                              [--http 18200] [--tcp 19200] [--url URL] [--keep] [--reuse] [--raw-runs 3]
                              [--ingest-only] [--skip dislike-rate,exposures] [--store 10M] [--pairs 3]

1. Starts a private ClickHouse (scripts/clickhouse.sh start DIR HTTP TCP, query log on) unless
   --url names a running one, and generates bench-out/events-1000000-seed1-v4.ndjson
   (scripts/generate_events.py --key v4: 1M mixed events with random UUIDv4 keys, the keys most
   apps send and the hardest for a key index; plain UUIDv7 keys when the generator has no --key).
2. Ingest: times (--raw-runs times, the median kept) `curl` posting that file as JSONEachRow into a plain MergeTree holding every
   scalar field of the wire format (`timestamp`, a number or ISO text, and the objects
   `position`, `properties`, `context` are skipped: 18.16's JSONEachRow cannot read them into
   one column), then `report ingest --backend clickhouse` of the same file into an empty
   database, and prints the ratio of their rates, with where the server spent the ingest's time
   (system.query_log, grouped by statement) and the CPU time the ingest process used (user and
   system), so that client work, server work and waiting can be told apart. On a server of its
   own it also prints the server process's CPU time during the raw insert and the ingest, and
   the least wall time the client's and the server's CPU allow on this machine's cores (their
   sum over the core count), with the best ratio to the raw insert that leaves.
2b. Into a full store (--store N, multiples of 1M; 0 skips it): generates N/1M files of 1M events
   of the same 2,000 users (scripts/generate_events.py --users 2000 --days 60 --key v4
   --user-seed 7, each 60 days before the next), --pairs newer files (each the 60 days after the
   one before, the first after the store) and an older one (the 60 days before the store), all in
   --data. Builds the store by ingesting the N files oldest first (each file's time printed: the
   slope), posts the first newer file by `curl` (the raw insert), then takes the newer files in
   turn, then the older one (history loaded after the present): each is ingested into an empty
   database and into the store, the pairs alternating which of the two comes first, each load once
   the server has merged what the loads before it left, so that the loads compared run a minute
   apart, not a store's build apart (this machine's speed drifts). The store grows by each file
   loaded into it. Prints each load's speed into the store as a ratio to the same file into an
   empty database, the newer files' ratios with their median, the first newer file's empty load as
   a ratio to the raw `curl` insert of it, and the server's reads of the lookups of the loads into
   the store (system.query_log).
   --ingest-only stops here.
3. Reports: for each --sizes N (multiples of 1M), a database of N events: the ingested 1M
   copied server-side N/1M times (INSERT SELECT, with user and event ids suffixed per copy, so
   each copy is new users), and every report run --runs times after a warm-up as a whole
   process with `--now 2026-11-20T12:00:00Z --format json`: the median wall time minus the
   start-up of the binary (the fastest of ten `report --help`), and the server time of the
   report's queries (query_log; queries may overlap, so it can exceed the wall time). At 1M
   the same reports run on a SQLite store of the same file, and the answers are compared.
   --reuse keeps a sized database a run with --keep left (such as tally_bench_100m, whose
   hundred copies take a quarter of an hour) when it holds N/1M times the 1M events.
   The time the server took to make the rollups of each copy shows in the fill time.
4. Prints the server's peak resident memory (VmHWM of its process) and stops it (--keep leaves
   it running, with its databases).
"""
import argparse
import calendar
import resource
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = '2026-11-20T12:00:00Z'
USER = 'u1-000'
UNIT = 1_000_000
# The 30 days before NOW, for the filtered reports.
WINDOW = ['--from', '2026-10-21', '--to', '2026-11-19']
REPORTS = [
    ['summary'],
    ['trend', '--days', '30'],
    ['heatmap', '--days', '365'],
    ['continue'],
    ['dislike-rate'],
    ['dislike-rate', '--by', 'model', '--top-reasons', '3'],
    ['exposures', '--by', 'day'],
    ['exposures', '--by', 'page'],
    ['exposures', '--by', 'item'],
    ['exposures', '--by', 'model'],
    ['exposures', '--by', 'position'],
    ['latency', '--event', 'view_loaded', '--field', 'load_duration_ms', '--by', 'app_version'],
    ['top', '--event', 'api_request_failed', '--by', 'userId'],
    ['retention'],
    # The feed filters (read from the events) and the model comparison.
    ['dislike-rate'] + WINDOW,
    ['exposures', '--by', 'day'] + WINDOW,
    ['compare', '--baseline', 'rec-v12'],
    ['compare', '--baseline', 'rec-v12', '--by', 'model,position'],
    ['compare', '--baseline', 'rec-v12'] + WINDOW,
]
PER_USER = [['summary'], ['trend', '--days', '30'], ['heatmap', '--days', '365'], ['continue'], ['progress', 'm-00'],
            ['dislike-rate'], ['dislike-rate', '--by', 'model', '--top-reasons', '3'], ['exposures', '--by', 'day'],
            ['exposures', '--by', 'page'], ['exposures', '--by', 'item'], ['exposures', '--by', 'model'],
            ['exposures', '--by', 'position'], ['retention'], ['dislike-rate'] + WINDOW, ['exposures', '--by', 'day'] + WINDOW]
EVENT_TABLES = ['reading_events', 'feedback_events', 'exposure_events', 'observability_events']
# The feed states, which views of the event tables keep; the feed counters are summed from the
# ingest's changes, so a copy has them remade from these (`copy_store`).
STATE_TABLES = ['impression_reactions', 'exposure_pairs']
# The ingest's lookups, by statement kind (`statement_kind`): the batch's keys (probed, and those
# the set holds looked up in the event tables), the pairs' and the impressions' states.
LOOKUPS = {'SELECT batch_keys', 'SELECT exposure_pairs', 'SELECT impression_exposures'}
# Columns a copy suffixes, so that every copy holds new users and new events.
RENAMED = {'user_id', 'event_id', 'id', 'session_id', 'page_instance_id'}
RAW_COLUMNS = """
    eventId String, id String, userId String, eventType String, eventName String, sessionId String,
    clientSessionId String, clientTimestampMs Int64, clientTimezoneOffsetMinutes Int16, materialId String,
    knowledgeBaseId String, readingTargetType String, title String, sequence Int64, activeSecondsDelta Float64,
    platform String, appVersion String, pageId String, pageInstanceId String, itemId String, impressionId String,
    modelInfo String, feedPosition Int64, visibleRatio Float64, dwellMs Int64, feedbackType String, reason String
"""


class Server:
    def __init__(self, url):
        self.url = url

    def run(self, sql, **settings):
        query = urllib.parse.urlencode(settings)
        with urllib.request.urlopen(urllib.request.Request(self.url + '/?' + query, data=sql.encode())) as answer:
            return answer.read().decode()

    def rows(self, sql):
        return [line.split('\t') for line in self.run(sql + ' FORMAT TabSeparated').splitlines()]

    def finished_queries(self, since_ids):
        """The queries the server finished that are not in since_ids: (id, seconds, memory, text, CPU
        seconds), the CPU being the user and system time of the query's threads (ProfileEvents),
        the materialized views an insert runs included."""
        self.run('SYSTEM FLUSH LOGS')
        out = []
        for query_id, ms, memory, text, cpu in self.rows(
                "SELECT query_id, query_duration_ms, memory_usage, substring(replaceAll(query, '\\n', ' '), 1, 5000), "
                "ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')] "
                "+ ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')] "
                "FROM system.query_log WHERE type = 2 AND event_date >= yesterday()"):
            if query_id not in since_ids:
                out.append((query_id, int(ms) / 1000, int(memory), text, int(cpu) / 1e6))
        return out

    def query_ids(self):
        self.run('SYSTEM FLUSH LOGS')
        return {row[0] for row in self.rows('SELECT query_id FROM system.query_log WHERE event_date >= yesterday()')}


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit('failed: %s\n%s' % (' '.join(command), done.stderr[-2000:]))
    return elapsed, done.stdout


def size(text):
    text = text.strip().upper()
    factor = {'K': 1_000, 'M': 1_000_000}.get(text[-1:], 1)
    value = int(float(text.rstrip('KM')) * factor)
    if value % UNIT:
        sys.exit('--sizes: %s is not a multiple of 1M' % text)
    return value


def statement_kind(text):
    """A label for grouping statements: the verb and the first table read: the one the statement
    itself names (outside parentheses), or when it reads a subquery, the first table named inside."""
    tokens, depths, depth = text.replace('(', ' ( ').replace(')', ' ) ').split(), [], 0
    for token in tokens:
        depth += (token == '(')
        depths.append(depth)
        depth -= (token == ')')
    upper = [t.upper() for t in tokens] + ['']
    for verb, after in [('INSERT', 'INTO'), ('OPTIMIZE', 'TABLE'), ('SELECT', 'FROM'), ('CREATE', 'EXISTS')]:
        if upper[0] != verb:
            continue
        named = [at for at, word in enumerate(upper[:-1]) if word == after and depths[at] == 0 and upper[at + 1] != '(']
        inner = [at for at, word in enumerate(upper[:-1]) if word == after and upper[at + 1] not in ('(', 'SELECT')]
        if named or inner:
            at = (named or inner)[0]
            return '%s %s' % (verb, tokens[at + 1] if at + 1 < len(tokens) else '')
    return ' '.join(tokens[:2])


def copy_store(server, source, target, copies):
    """Fills `target` (created like `source` by an ingest of nothing) with `copies` renamed copies of
    source, and marks its feed counters stale, for the next ingest to remake them from the states."""
    for table in EVENT_TABLES:
        columns = [row[0] for row in server.rows(
            "SELECT name FROM system.columns WHERE database = '%s' AND table = '%s' AND default_kind NOT IN ('MATERIALIZED', 'ALIAS')"
            % (source, table))]
        if not columns:
            continue
        for copy in range(copies):
            select = ', '.join("concat(%s, '.%d')" % (c, copy) if c in RENAMED and copy else c for c in columns)
            server.run('INSERT INTO %s.%s (%s) SELECT %s FROM %s.%s' % (target, table, ', '.join(columns), select, source, table))
    for table in STATE_TABLES:
        server.run('CREATE TABLE IF NOT EXISTS %s.%s__rollups_stale (stale UInt8) ENGINE = TinyLog' % (target, table))


def events_in(server, database):
    """The events stored in `database`, 0 when it does not exist."""
    if not server.rows("SELECT name FROM system.databases WHERE name = '%s'" % database):
        return 0
    return sum(int(server.run('SELECT count() FROM %s.%s' % (database, table)))
               for table in EVENT_TABLES)


def server_cpu(server_dir):
    """CPU seconds (user + system) the server process has used so far, None when not ours."""
    try:
        pid = open(os.path.join(server_dir, 'server.pid')).read().strip()
        fields = open('/proc/%s/stat' % pid).read().rsplit(')', 1)[1].split()
    except (OSError, TypeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def peak_memory(server_dir):
    try:
        pid = open(os.path.join(server_dir, 'server.pid')).read().strip()
        for line in open('/proc/%s/status' % pid):
            if line.startswith(('VmHWM', 'VmRSS')):
                yield line.split(':')[0], line.split(':')[1].strip()
    except OSError:
        return


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--sizes', default='1M,10M', help='store sizes, multiples of 1M (default %(default)s)')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--data', default='bench-out')
    ap.add_argument('--dir', default=os.path.join('bench-out', 'clickhouse-server'))
    ap.add_argument('--http', type=int, default=18200)
    ap.add_argument('--tcp', type=int, default=19200)
    ap.add_argument('--url', help='a running server to use instead of starting one')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--raw-runs', type=int, default=3, help='raw inserts timed, the median used (default %(default)s)')
    ap.add_argument('--ingest-only', action='store_true', help='measure the ingest only, no reports')
    ap.add_argument('--reuse', action='store_true', help='keep sized databases a --keep run left, when complete')
    ap.add_argument('--skip', default='', help='reports not to run, by command name (such as dislike-rate,exposures)')
    ap.add_argument('--pairs', type=int, default=3,
                    help='newer files compared into an empty database and into the store (default %(default)s)')
    ap.add_argument('--store', default='10M', help='events of the full store loaded into (multiple of 1M, 0 skips; default %(default)s)')
    args = ap.parse_args()
    sizes = [size(s) for s in args.sizes.split(',')]
    args.store = 0 if args.store.strip() == '0' else size(args.store)
    if args.store and args.pairs < 1:
        sys.exit('--pairs: at least one newer file is loaded into the store')
    os.makedirs(args.data, exist_ok=True)
    generator = [sys.executable, os.path.join(HERE, 'generate_events.py')]
    v4 = '--key' in subprocess.run(generator + ['--help'], capture_output=True, text=True).stdout
    events = os.path.join(args.data, 'events-%d-seed1%s.ndjson' % (UNIT, '-v4' if v4 else ''))
    if not os.path.exists(events):
        subprocess.run(generator + ['--events', str(UNIT), '--seed', '1', '--out', events + '.part'] + (['--key', 'v4'] if v4 else []),
                       check=True)
        os.replace(events + '.part', events)
    url = args.url or subprocess.run([os.path.join(HERE, 'clickhouse.sh'), 'start', args.dir, str(args.http), str(args.tcp)],
                                     check=True, capture_output=True, text=True).stdout.strip()
    server = Server(url)
    try:
        bench(server, args, sizes, events)
    finally:
        for name, value in ([] if args.url else peak_memory(args.dir)):
            print('server %s: %s' % (name, value))
        if not args.url and not args.keep:
            subprocess.run([os.path.join(HERE, 'clickhouse.sh'), 'stop', args.dir], check=True)


def raw_insert(server, events, runs, own):
    """Times `runs` raw `curl` inserts of `events` into a plain MergeTree: (seconds of each, the
    server CPU seconds of each when the server is ours, rows inserted)."""
    times, cpus = [], []
    for _ in range(runs):
        server.run('DROP DATABASE IF EXISTS bench_raw')
        server.run('CREATE DATABASE bench_raw')
        server.run('CREATE TABLE bench_raw.events (%s) ENGINE = MergeTree ORDER BY tuple()' % RAW_COLUMNS)
        cpu = server_cpu(own)
        times.append(timed(['curl', '-sS', '--fail', '--data-binary', '@' + events, server.url + '/?' + urllib.parse.urlencode({
            'input_format_skip_unknown_fields': '1', 'query': 'INSERT INTO bench_raw.events FORMAT JSONEachRow'})])[0])
        if cpu is not None:
            cpus.append(server_cpu(own) - cpu)
    return times, cpus, int(server.run('SELECT count() FROM bench_raw.events'))


def store_file(args, name, end_days_before):
    """`--data/store-NAME.ndjson`: 1M events of the 2,000 users of the full-store load, ending
    `end_days_before` days before NOW (generated once)."""
    path = os.path.join(args.data, 'store-%s.ndjson' % name)
    if not os.path.exists(path):
        end = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(
            calendar.timegm(time.strptime(NOW, '%Y-%m-%dT%H:%M:%SZ')) - end_days_before * 86400))
        subprocess.run([sys.executable, os.path.join(HERE, 'generate_events.py'), '--users', '2000', '--days', '60', '--key', 'v4',
                        '--events', str(UNIT), '--user-seed', '7', '--seed', str(200 + end_days_before // 60), '--end', end,
                        '--out', path + '.part'], check=True, stderr=subprocess.DEVNULL)
        os.replace(path + '.part', path)
    return path


def full_store(server, args, ch):
    """Step 2b: the loads into a full store, against the same loads into empty databases."""
    files = args.store // UNIT
    stored = [store_file(args, 'back-%d' % k, 60 * k) for k in range(files, 0, -1)]
    # The newer files follow each other, 60 days each; the older one precedes the store.
    newer = [store_file(args, 'newer' if k == 0 else 'newer-%d' % (k + 1), -60 * k) for k in range(args.pairs)]
    older = store_file(args, 'back-%d' % (files + 1), 60 * (files + 1))

    def ingest(path, database):
        seconds, out = timed([args.bin, 'ingest', path, '--format', 'json'] + ch(database))
        return seconds, json.loads(out)['accepted']

    server.run('DROP DATABASE IF EXISTS tally_bench_store')
    print('\nbuilding a store of %s events: seconds per 1M file, oldest first:' % '{:,}'.format(args.store), flush=True)
    times = []
    for path in stored:
        times.append(ingest(path, 'tally_bench_store')[0])
        print('  %.1f' % times[-1], end='', flush=True)
    print()
    settled(server, 'tally_bench_store')
    raw_times, _, raw_rows = raw_insert(server, newer[0], args.raw_runs, None)
    server.run('DROP DATABASE IF EXISTS bench_raw')
    # Each file is loaded into an empty database and into the store, the two a minute apart; the
    # pairs alternate which comes first, so that neither gains from following the other.
    loads = []
    for k, path in enumerate(newer + [older]):
        holding = args.store + k * UNIT
        label = ('older than the store (%s events)' if path == older else 'newer than the store (%s events)') % '{:,}'.format(holding)
        pair = {}
        for where in (['store', 'empty'] if k % 2 else ['empty', 'store']):
            settled(server, 'tally_bench_store')
            if where == 'empty':
                server.run('DROP DATABASE IF EXISTS tally_bench_empty')
                pair['empty'] = ingest(path, 'tally_bench_empty')
                server.run('DROP DATABASE IF EXISTS tally_bench_empty')
            else:
                before = server.query_ids()
                pair['store'] = ingest(path, 'tally_bench_store') + (store_reads(server, before),)
        (e_seconds, e_rows), (s_seconds, s_rows, reads) = pair['empty'], pair['store']
        loads.append({'label': label, 'empty': e_seconds, 'empty_rows': e_rows, 'store': s_seconds, 'reads': reads,
                      'ratio': (s_rows / s_seconds) / (e_rows / e_seconds), 'older': path == older})
    print('\n| load of 1M events (%s) | seconds into an empty database | seconds into the store | ratio of speeds |' % '--users 2000 --days 60 --key v4')
    print('| --- | ---: | ---: | ---: |')
    for load in loads:
        print('| %s | %.2f | %.2f | %.2f |' % (load['label'], load['empty'], load['store'], load['ratio']))
    ratios = [load['ratio'] for load in loads if not load['older']]
    print('\nnewer files: ratios %s, median %.2f' % (', '.join('%.2f' % r for r in ratios), statistics.median(ratios)))
    raw_seconds = statistics.median(raw_times)
    print('\nnewer file into an empty database vs the raw insert of it (%.2f s, %s rows): ratio %.2f' % (
        raw_seconds, '{:,}'.format(raw_rows), (loads[0]['empty_rows'] / loads[0]['empty']) / (raw_rows / raw_seconds)))
    for load in loads:
        print('\nthe lookups of the load %s (query_log; on a shared server, others\' statements of these kinds too):' % load['label'])
        for kind, (count, seconds, rows, data) in sorted(load['reads'].items(), key=lambda item: -item[1][1]):
            if kind not in LOOKUPS:
                continue
            print('  %-48s %5d statements %7.2f s %12s rows read %8.1f MB read' % (kind, count, seconds, '{:,}'.format(rows), data / 1e6))
    if not args.keep:
        server.run('DROP DATABASE IF EXISTS tally_bench_store')


def settled(server, database, limit=300):
    """Waits (up to `limit` seconds) until the server runs no merge of `database`'s parts, so that a
    load is not measured against the merges the loads before it left."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit and int(server.run("SELECT count() FROM system.merges WHERE database = '%s'" % database)):
        time.sleep(1)
    print('merges of the loads before settled after %.0f s' % (time.perf_counter() - start))


def store_reads(server, before):
    """The statements the server finished since `before` (ids), by kind: count, seconds, rows and bytes read."""
    server.run('SYSTEM FLUSH LOGS')
    kinds = {}
    for query_id, ms, rows, data, text in server.rows(
            "SELECT query_id, query_duration_ms, read_rows, read_bytes, substring(replaceAll(query, '\\n', ' '), 1, 5000) "
            "FROM system.query_log WHERE type = 2 AND event_date >= yesterday()"):
        if query_id in before:
            continue
        kind = statement_kind(text)
        count, seconds, total_rows, total_bytes = kinds.get(kind, (0, 0.0, 0, 0))
        kinds[kind] = (count + 1, seconds + int(ms) / 1000, total_rows + int(rows), total_bytes + int(data))
    return kinds


def bench(server, args, sizes, events):
    print('ClickHouse %s at %s; binary %s; %s' % (server.run('SELECT version()').strip(), server.url, args.bin, events))
    ch = lambda database: ['--backend', 'clickhouse', '--clickhouse-url', server.url, '--clickhouse-database', database]

    # Databases a stopped run left behind would merge in the background during this one.
    for (database,) in server.rows("SELECT name FROM system.databases WHERE substring(name, 1, 12) = 'tally_bench_'"):
        if not args.reuse:
            server.run('DROP DATABASE IF EXISTS %s' % database)

    # 2. The engine's own insert, then the backend's ingest of the same file.
    own = None if args.url else args.dir
    raw_times, raw_cpu, raw_rows = raw_insert(server, events, args.raw_runs, own)
    raw_seconds = statistics.median(raw_times)
    print('raw inserts: %s s (the median is used)' % ', '.join('%.2f' % t for t in raw_times))
    server.run('DROP DATABASE IF EXISTS tally_bench_1m')
    before = server.query_ids()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = server_cpu(own)
    ingest_seconds, out = timed([args.bin, 'ingest', events, '--format', 'json'] + ch('tally_bench_1m'))
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_after = server_cpu(own)
    accepted = json.loads(out)['accepted']
    raw_rate, ingest_rate = raw_rows / raw_seconds, accepted / ingest_seconds
    print('\n| ingest of %s | seconds | rows/s |' % os.path.basename(events))
    print('| --- | ---: | ---: |')
    print('| `curl` JSONEachRow into a plain MergeTree (%s rows) | %.2f | %s |' % ('{:,}'.format(raw_rows), raw_seconds, '{:,.0f}'.format(raw_rate)))
    print('| `report ingest --backend clickhouse` (%s accepted) | %.2f | %s |' % ('{:,}'.format(accepted), ingest_seconds, '{:,.0f}'.format(ingest_rate)))
    print('\nratio to the raw insert: %.2f' % (ingest_rate / raw_rate))
    client = cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime
    print('client CPU of the ingest: %.2f s user, %.2f s system' % (
        cpu_after.ru_utime - cpu_before.ru_utime, cpu_after.ru_stime - cpu_before.ru_stime))
    if server_before is not None and raw_cpu:
        # Both processes share the machine's cores: their CPU time over the cores is the least
        # wall time the ingest could take here, however well client and server overlapped.
        cores = os.cpu_count()
        floor = (client + server_after - server_before) / cores
        print('server CPU: raw insert %.2f s (median), ingest %.2f s' % (statistics.median(raw_cpu), server_after - server_before))
        print('least wall time of the ingest on %d cores (client + server CPU / %d): %.2f s; best ratio it allows: %.2f' % (
            cores, cores, floor, raw_seconds / floor if floor else 0))
    kinds = {}
    for _, seconds, _, text, cpu in server.finished_queries(before):
        kind = statement_kind(text)
        count, total, cpu_total = kinds.get(kind, (0, 0.0, 0.0))
        kinds[kind] = (count + 1, total + seconds, cpu_total + cpu)
    print('\nserver time of the ingest by statement (query_log: wall time, and CPU with the views each insert runs):')
    for kind, (count, total, cpu_total) in sorted(kinds.items(), key=lambda item: -item[1][1]):
        print('  %-48s %5d statements %8.2f s, CPU %6.2f s' % (kind, count, total, cpu_total))
    if args.store:
        full_store(server, args, ch)
    if args.ingest_only:
        return

    # 3. The reports at each size.
    startup = min(timed([args.bin, '--help'])[0] for _ in range(10))
    print('\nstart-up of the binary (fastest of ten `report --help`): %.0f ms, subtracted below' % (startup * 1000))
    sqlite_path = os.path.join(args.data, 'bench-clickhouse-1m.sqlite')
    for suffix in ['', '-wal', '-shm']:
        if os.path.exists(sqlite_path + suffix):
            os.remove(sqlite_path + suffix)
    timed([args.bin, 'ingest', events, '--db', sqlite_path, '--format', 'json'])
    for stored in sizes:
        database = 'tally_bench_1m'
        if stored > UNIT and args.reuse and events_in(server, database='tally_bench_%dm' % (stored // UNIT)) == \
                events_in(server, 'tally_bench_1m') * (stored // UNIT):
            database = 'tally_bench_%dm' % (stored // UNIT)
            print('\nreusing %s' % database)
        elif stored > UNIT:
            database = 'tally_bench_%dm' % (stored // UNIT)
            server.run('DROP DATABASE IF EXISTS %s' % database)
            empty = os.path.join(args.data, 'bench-clickhouse-empty.ndjson')
            open(empty, 'w').close()
            timed([args.bin, 'ingest', empty, '--format', 'json'] + ch(database))
            start = time.perf_counter()
            copy_store(server, 'tally_bench_1m', database, stored // UNIT)
            timed([args.bin, 'ingest', empty, '--format', 'json'] + ch(database))
            print('\nfilled %s with %d copies in %.0f s' % (database, stored // UNIT, time.perf_counter() - start))
        print('\n| report over %s events (median of %d) | ms, start-up excluded | server ms | server peak MB |%s' % (
            '{:,}'.format(stored), args.runs, ' SQLite ms | same answer |' if stored == UNIT else ''))
        print('| --- | ---: | ---: | ---: |%s' % (' ---: | --- |' if stored == UNIT else ''))
        for report in REPORTS + [report + ['--user', USER] for report in PER_USER]:
            if report[0] in args.skip.split(','):
                continue
            command = [args.bin] + report + ['--now', NOW, '--format', 'json']
            timed(command + ch(database))
            before = server.query_ids()
            runs = [timed(command + ch(database)) for _ in range(args.runs)]
            queries = server.finished_queries(before)
            wall = statistics.median(r[0] for r in runs) - startup
            server_ms = sum(q[1] for q in queries) / args.runs * 1000
            memory = max([q[2] for q in queries] or [0]) / 1e6
            extra = ''
            if stored == UNIT:
                timed(command + ['--db', sqlite_path])
                sqlite_runs = [timed(command + ['--db', sqlite_path]) for _ in range(args.runs)]
                same = json.loads(runs[-1][1]) == json.loads(sqlite_runs[-1][1])
                extra = ' %.0f | %s |' % ((statistics.median(r[0] for r in sqlite_runs) - startup) * 1000, 'yes' if same else '**no**')
            print('| `%s` | %.0f | %.0f | %.0f |%s' % (' '.join(report), wall * 1000, server_ms, memory, extra), flush=True)
    if not args.keep:
        for database in ['bench_raw', 'tally_bench_1m'] + ['tally_bench_%dm' % (s // UNIT) for s in sizes if s > UNIT]:
            server.run('DROP DATABASE IF EXISTS %s' % database)


if __name__ == '__main__':
    main()
