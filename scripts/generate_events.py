#!/usr/bin/env python3
"""Reproducible generator of Tally app events, in the wire format of shared/spec/events.md.

Usage:
  scripts/generate_events.py --events 1000000 --out bench-out/events.ndjson [--seed 1] [--key v4|v7]
  scripts/generate_events.py --users 20 --days 365 --out out/ --gzip
  scripts/generate_events.py --events 5000 --format batch --out upload.json --bad-lines 6 --duplicates 3

It simulates users in several time zones (some with daylight saving time) over the days that
end at --end (default 2026-11-20T12:00:00Z, the `--now` of the acceptance suite). A user has
active and idle days (streaks, breaks); an active day has app sessions at plausible local
hours, each with
  - observability events: app_launch, view_loaded (properties.load_duration_ms, app_version:
    newer versions load faster), api_request_failed (a few users far more than others),
    app_background;
  - a reading session: material_opened (with title), heartbeats every ~15 s
    (activeSecondsDelta 15, sometimes less or a coalesced 30), position_changed
    ({page, pageCount}, {progress} or both), material_closed, marked_as_read sometimes when
    a material is finished;
  - a feed session: exposure events (pageId, pageInstanceId, itemId, impressionId,
    modelInfo rec-v11..v13 rolled out over time, feedPosition, visibleRatio, dwellMs), a few
    duplicate exposures (a client bug signal), and feedback (like/dislike/neutral, reasons,
    timestamp as ISO-8601 with Z or an offset, or as ms), some without an exposure.
Event ids are UUIDv7 of the event's timestamp (--key v7, the default), or random UUIDv4
(--key v4, what `UUID()` gives most apps; otherwise the same events). Lines are in chronological order. The same
arguments give byte-identical files.

--events N is the number of distinct valid events (with --users/--days only, N defaults to
what such users naturally produce). --bad-lines K adds K rejected lines, cycling through the
rejection codes (INVALID_JSON only in NDJSON), and --duplicates K re-sends K earlier lines a
little later, as a retrying uploader does; both come on top of N. --out is a file, a
directory (then events-SEED.ndjson[.gz] or .json inside it) or - for stdout. User ids are
u<seed>-<index>; u<seed>-000 is the most active user. --user-seed S keeps the same users
(u<S>-<index>) across files of different --seed, each a later period (--end) than the last.
"""
import argparse
import contextlib
import datetime as dt
import gzip
import itertools
import math
import os
import random
import sys

DAY_MS = 86_400_000
DEFAULT_END = '2026-11-20T12:00:00Z'
NATURAL_EVENTS_PER_USER_DAY = 60  # what the model produces per user and day at scale 1

# (offset minutes in winter, observes northern daylight saving time, weight)
TIMEZONES = [(480, False, 5), (-300, True, 3), (0, True, 2), (330, False, 2), (540, False, 2),
             (60, True, 1), (-480, True, 1), (600, False, 1)]

# (title, pages or None for progress-only, position style, readingTargetType)
CATALOGUE = [
    ('线性代数', 320, 'page', 'knowledge_source'),
    ('Swift 并发', 180, 'both', 'knowledge_source'),
    ('概率论与数理统计', 410, 'page', 'knowledge_source'),
    ('深度学习入门', 290, 'page', 'knowledge_source'),
    ('算法导论', 1290, 'page', 'knowledge_source'),
    ('操作系统导论', 680, 'both', 'knowledge_source'),
    ('计算机网络：自顶向下方法', 560, 'page', 'knowledge_source'),
    ('数据库系统概念', 720, 'page', 'knowledge_source'),
    ('三体', None, 'progress', 'knowledge_source'),
    ('红楼梦', None, 'progress', 'knowledge_source'),
    ('经济学原理', 540, 'page', 'knowledge_source'),
    ('机器学习', 420, 'both', 'knowledge_source'),
    ('The Swift Programming Language', 980, 'both', 'knowledge_source'),
    ('Designing Data-Intensive Applications', 610, 'page', 'knowledge_source'),
    ('Thinking, Fast and Slow', None, 'progress', 'knowledge_source'),
    ('Clean Code', 460, 'page', 'knowledge_source'),
    ('SQLite Internals', 240, 'page', 'knowledge_source'),
    ('高等数学（上册）', 390, 'page', 'knowledge_source'),
    ('英语阅读：The Economist 精选', None, 'progress', 'knowledge_source'),
    ('A Philosophy of Software Design', 190, 'page', 'knowledge_source'),
    ('周报 2026-W40.pdf', 6, 'page', 'temporary_file'),
    ('会议纪要.pdf', 4, 'page', 'temporary_file'),
    ('lecture-notes-week3.pdf', 28, 'page', 'temporary_file'),
    ('合同草案_v2.docx', 15, 'both', 'temporary_file'),
    ('paper-attention-is-all-you-need.pdf', 15, 'page', 'temporary_file'),
    ('季度财报.pdf', 42, 'page', 'temporary_file'),
]

APP_VERSIONS = [  # (version, released this many days before --end, median view load ms)
    ('2.1.0', 10_000, 520), ('2.2.0', 200, 440), ('2.3.0', 110, 370), ('2.4.0', 30, 310)]
MODELS = [('rec-v11', 10_000, 0.40), ('rec-v12', 240, 0.32), ('rec-v13', 60, 0.25)]  # name, launched, dislike share
PAGES = ['home', 'home', 'explore', 'channel']
REASONS = ['重复看到', '内容不感兴趣', '内容不感兴趣', '标题党', '内容质量差', '不想看到此作者']
VIEWS = ['detail', 'settings', 'search', 'profile']
FAILING_PATHS = ['/feed', '/feed', '/sync/events', '/materials', '/feedback']
ITEMS = 400
# relative likelihood of starting an app session at each local hour
HOUR_WEIGHTS = [1, 0, 0, 0, 0, 1, 3, 8, 9, 5, 4, 4, 7, 6, 3, 3, 4, 4, 5, 8, 10, 10, 8, 4]
HOURS_CUM = list(itertools.accumulate(HOUR_WEIGHTS))
REJECTION_CODES = ['INVALID_JSON', 'INVALID_EVENT_TYPE', 'MISSING_FIELD', 'INVALID_FIELD',
                   'INVALID_ACTIVE_SECONDS', 'INVALID_TIMESTAMP']


def parse_instant(s):
    return int(dt.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp() * 1000)


def iso(ms, offset_minutes=None, millis=True):
    """ISO-8601 of an instant: UTC with 'Z' (offset_minutes None) or local time with its offset."""
    tz = dt.timezone.utc if offset_minutes is None else dt.timezone(dt.timedelta(minutes=offset_minutes))
    t = dt.datetime.fromtimestamp(ms // 1000, tz) + dt.timedelta(milliseconds=ms % 1000 if millis else 0)
    s = t.isoformat(timespec='milliseconds' if millis else 'seconds')
    return s[:-6] + 'Z' if offset_minutes is None else s


def in_dst(day_ms):
    """Northern daylight saving time, approximately (second Sunday of March to first of November)."""
    d = dt.date(1970, 1, 1) + dt.timedelta(days=day_ms // DAY_MS)
    return (3, 10) <= (d.month, d.day) < (11, 3)


def uuid4_text(b):
    """The UUIDv4 text of 122 random bits."""
    return (f'{b >> 90:08x}-{(b >> 74) & 0xffff:04x}-{0x4000 | ((b >> 62) & 0xfff):04x}-'
            f'{0x8000 | ((b >> 48) & 0x3fff):04x}-{b & 0xffffffffffff:012x}')


class User:
    def __init__(self, uid, tz, dst, weight, start_day, rng):
        self.uid, self.tz, self.dst, self.weight, self.start_day = uid, tz, dst, weight, start_day
        self.user_json = '' if uid is None else f'"userId":"{uid}",'
        self.tag = uid or 'anon'
        self.platform = 'ipados' if rng.random() < 0.2 else 'ios'
        self.habit = rng.uniform(0.45, 0.92)       # chance of reading again the day after a reading day
        self.upgrade_lag = rng.randrange(0, 40)    # days before this user installs a new version
        self.model_bucket = rng.random()           # A/B bucket of the recommender rollout
        self.failure_rate = rng.choice([0.02, 0.03, 0.05, 0.08, 0.3])  # api failures per app session
        self.pages_per_heartbeat = rng.uniform(0.15, 0.5)
        self.active = False
        self.paused_until = -1
        self.sessions = 0
        self.reading = []    # in-progress catalogue indices, most recent last
        self.position = {}   # catalogue index -> page (int) or progress (float)
        self.finished = set()


class Generator:
    """Simulates the users day by day and yields (timestamp ms, family, line) in time order."""

    def __init__(self, rng, users, days, end_ms, events, key_rng=None):
        self.rng, self.users, self.days, self.end_ms, self.events = rng, users, days, end_ms, events
        self.key_bits = key_rng.getrandbits if key_rng else None
        self.rand, self.bits = rng.random, rng.getrandbits
        self.out = []
        self.emitted = 0
        self.catalogue = [(f'm-{i:02d}', title, pages, style, target,
                           f'"knowledgeBaseId":"kb-{i % 5 + 1}",' if target == 'knowledge_source' else '')
                          for i, (title, pages, style, target) in enumerate(CATALOGUE)]
        self.max_offset_ms = max(u.tz + 60 * u.dst for u in users) * 60_000

    # ids
    def uuid7(self, ms):
        """The id of an event at ms: UUIDv7 of ms, or with --key v4 a random UUIDv4 (drawn from a
        stream of its own, so that the events are the same whichever key is asked for)."""
        b = self.bits(74)
        if self.key_bits:
            return uuid4_text(self.key_bits(122))
        return f'{ms >> 16:08x}-{ms & 0xffff:04x}-{0x7000 | (b & 0xfff):04x}-{0x8000 | ((b >> 12) & 0x3fff):04x}-{b >> 26:012x}'

    def uuid4(self):
        return uuid4_text(self.bits(122))

    # the days
    def __iter__(self):
        end_day = self.end_ms // DAY_MS * DAY_MS
        first_day = end_day - (self.days - 1) * DAY_MS
        remaining = self.events
        rate = NATURAL_EVENTS_PER_USER_DAY * len(self.users)  # events per day at scale 1, refined as we go
        pending = []
        for i in range(self.days):
            day = first_day + i * DAY_MS
            days_left = self.days - i
            # the last day aims a little high, and has more sessions while short of the count
            for _ in range(1 if days_left > 1 else 10):
                target = remaining / days_left if days_left > 1 else remaining * 1.05 + 1
                scale = min(max(target / rate, 0.05), 20.0)
                self.out = []
                for u in self.users:
                    if i >= u.start_day:
                        self.user_day(u, day, i, scale)
                fresh = [e for e in self.out if e[0] <= self.end_ms]
                remaining -= len(fresh)
                rate = 0.9 * rate + 0.1 * len(fresh) / scale
                pending += fresh
                if remaining <= 0:
                    break
            pending.sort(key=lambda e: e[0])
            horizon = day + DAY_MS - self.max_offset_ms  # no later local day has an event before this
            cut = next((k for k, e in enumerate(pending) if e[0] >= horizon), len(pending)) if days_left > 1 else len(pending)
            ready = pending[:min(cut, self.events - self.emitted)]
            del pending[:len(ready)]
            self.emitted += len(ready)
            yield from ready
            if ready and self.emitted == self.events and days_left > 1:
                print(f'warning: the {self.events} events end at {iso(ready[-1][0])}, {days_left - 1} day(s) before --end: '
                      'give fewer --users or --days', file=sys.stderr)
                return

    def user_day(self, u, day, day_index, scale):
        r = self.rand
        if day_index <= u.paused_until:
            return
        if r() < 0.006:  # a trip, an exam week: a few idle days
            u.paused_until = day_index + self.rng.randrange(3, 15)
        u.active = r() < (u.habit if u.active else u.habit * 0.55) * min(1.0, u.weight)
        if not u.active:
            return
        offset = u.tz + (60 if u.dst and in_dst(day) else 0)
        midnight = day - offset * 60_000
        days_before_end = (self.end_ms - day) // DAY_MS
        version = next(v for v in reversed(APP_VERSIONS) if days_before_end + u.upgrade_lag <= v[1])
        more = math.sqrt(scale) if scale > 1 else 1.0
        length = scale / more
        n = 1
        while r() < min(0.8, 0.35 * u.weight * more) and n < 12:
            n += 1
        starts = sorted(midnight + self.rng.choices(range(24), cum_weights=HOURS_CUM)[0] * 3_600_000
                        + self.rng.randrange(3_600_000) for _ in range(n))
        t = 0
        for start in starts:
            t = self.app_session(u, max(start, t + 120_000), offset, version, length, days_before_end)

    def app_session(self, u, t, offset, version, length, days_before_end):
        r, rng = self.rand, self.rng
        u.sessions += 1
        session_id = self.uuid4().upper()
        ver = version[0]
        obs_prefix = '"sessionId":"%s",%s"properties":{' % (session_id, u.user_json)
        cold = r() < 0.6
        self.obs(t, 'app_launch', obs_prefix,
                 f'"cold_start":{"true" if cold else "false"},"launch_duration_ms":{int(rng.lognormvariate(6.6 if cold else 5.3, 0.4))},"app_version":"{ver}"')
        t += rng.randrange(500, 4000)
        activities = []
        if r() < 0.8:
            activities.append(self.reading_session)
        if r() < 0.6 or not activities:
            activities.append(self.feed_session)
        rng.shuffle(activities)
        fail_at = rng.randrange(len(activities) + 1) if r() < u.failure_rate else -1
        for k, activity in enumerate(activities):
            if k == fail_at:
                self.api_failure(t, obs_prefix, ver)
            t = activity(u, t, offset, version, length, obs_prefix, days_before_end) + rng.randrange(1000, 20_000)
        if fail_at == len(activities):
            self.api_failure(t, obs_prefix, ver)
        if r() < 0.3:
            self.view_loaded(t, obs_prefix, version, rng.choice(VIEWS))
            t += rng.randrange(5000, 60_000)
        self.obs(t, 'app_background', obs_prefix, f'"app_version":"{ver}"')
        return t

    # observability
    def obs(self, t, name, prefix, properties):
        self.out.append((t, 'o', f'{{"eventId":"{self.uuid7(t)}","timestamp":{t},"eventName":"{name}",{prefix}{properties}}}}}'))

    def view_loaded(self, t, prefix, version, view):
        ms = int(version[2] * self.rng.lognormvariate(0, 0.45) * (self.rng.uniform(3, 9) if self.rand() < 0.01 else 1))
        self.obs(t, 'view_loaded', prefix, f'"view_name":"{view}","load_duration_ms":{ms},"app_version":"{version[0]}"')

    def api_failure(self, t, prefix, ver):
        rng = self.rng
        status = rng.choice([500, 502, 503, 503, 504, 408, 429])
        self.obs(t, 'api_request_failed', prefix,
                 f'"path":"{rng.choice(FAILING_PATHS)}","status":{status},"duration_ms":{rng.randrange(80, 30_000)},"app_version":"{ver}"')

    # reading
    def pick_material(self, u):
        rng = self.rng
        if u.reading and (len(u.reading) >= 3 or self.rand() < 0.85):
            m = u.reading[-1] if self.rand() < 0.75 else rng.choice(u.reading)
            u.reading.remove(m)
        else:
            idle = [i for i in range(len(self.catalogue)) if i not in u.position]
            m = rng.choice([i for i in idle if i not in u.finished] or idle)  # else read one again
            u.finished.discard(m)
            u.position[m] = 1 if self.catalogue[m][2] else 0.0
        u.reading.append(m)
        return m

    def reading_session(self, u, t, offset, version, length, obs_prefix, _days_before_end):
        r, bits, uuid7 = self.rand, self.bits, self.uuid7
        out = self.out.append
        self.view_loaded(t, obs_prefix, version, 'reader_view')
        m = self.pick_material(u)
        mid, title, pages, style, target, kb = self.catalogue[m]
        prefix = (f'{{"clientSessionId":"{u.tag}-s{u.sessions}","materialId":"{mid}","readingTargetType":"{target}",{kb}'
                  f'"platform":"{u.platform}","appVersion":"{version[0]}","clientTimezoneOffsetMinutes":{offset},{u.user_json}')
        pos = u.position[m]
        flip = u.pages_per_heartbeat * (3 if target == 'temporary_file' else 1)  # files are skimmed

        def position():
            if style == 'progress':
                return f',"position":{{"progress":{pos:.4f}}}'
            if style == 'page':
                return f',"position":{{"page":{pos},"pageCount":{pages}}}'
            return f',"position":{{"page":{pos},"pageCount":{pages},"progress":{pos / pages:.4f}}}'

        t += self.rng.randrange(200, 1500)
        out((t, 'r', f'{prefix}"eventId":"{uuid7(t)}","eventType":"material_opened","clientTimestampMs":{t},"sequence":1,"activeSecondsDelta":0{position()},"title":"{title}"}}'))
        seq = 1
        heartbeats = min(int(-math.log(1.0 - r()) * 30 * length) + 1, 720)
        step = 1.0 / (pages or 500)
        finished = False
        for _ in range(heartbeats):
            x = r()
            if x < 0.03:
                gap, delta = 30_000, 30          # a missed beat, coalesced into the next one
            elif x < 0.11:
                gap, delta = 15_000, int(r() * 15)  # paused part of the interval
            else:
                gap, delta = 15_000, 15
            t += gap + (bits(10) - 512)
            seq += 1
            if r() < flip:
                pos = pos + 1 if pages else min(1.0, pos + step * (1 + 2 * r()))
                finished = pos >= (pages or 1.0)
                seq += 1
                out((t - 400, 'r', f'{prefix}"eventId":"{uuid7(t - 400)}","eventType":"position_changed","clientTimestampMs":{t - 400},"sequence":{seq - 1},"activeSecondsDelta":0{position()}}}'))
            extra = position() if x > 0.75 else ''
            out((t, 'r', f'{prefix}"eventId":"{uuid7(t)}","eventType":"heartbeat","clientTimestampMs":{t},"sequence":{seq},"activeSecondsDelta":{delta}{extra}}}'))
            if finished:
                break
        u.position[m] = pos
        if finished:
            u.reading.remove(m)
            del u.position[m]
            u.finished.add(m)
            if r() < 0.6:
                t += self.rng.randrange(1000, 8000)
                seq += 1
                out((t, 'r', f'{prefix}"eventId":"{uuid7(t)}","eventType":"marked_as_read","clientTimestampMs":{t},"sequence":{seq},"activeSecondsDelta":0{position()}}}'))
        t += self.rng.randrange(1000, 15_000)
        out((t, 'r', f'{prefix}"eventId":"{uuid7(t)}","eventType":"material_closed","clientTimestampMs":{t},"sequence":{seq + 1},"activeSecondsDelta":{int(r() * 15)}}}'))
        return t

    # recommendation feed
    def feed_session(self, u, t, offset, version, length, obs_prefix, days_before_end):
        r, rng, uuid7 = self.rand, self.rng, self.uuid7
        out = self.out.append
        page_id = rng.choice(PAGES)
        self.view_loaded(t, obs_prefix, version, f'{page_id}_view')
        launched = [mdl for mdl in MODELS if mdl[1] >= days_before_end]
        model = launched[-1] if u.model_bucket < 0.5 or len(launched) == 1 else launched[-2]
        model_name, dislike_share = model[0], model[2]
        page = self.uuid4()
        head = '"eventType":"exposure",'
        page_json = f'{u.user_json}"pageId":"{page_id}","pageInstanceId":"{page}",'
        for _ in range(1 + (r() < 0.3) + (r() < 0.1)):  # pulled to refresh once or twice
            refresh_id = self.uuid4()
            shown = min(int(-math.log(1.0 - r()) * 16 * length) + 2, 120)
            for position, item in enumerate(rng.sample(range(ITEMS), shown)):
                t += rng.randrange(400, 3500)
                impression = f'imp-{self.bits(48):012x}'
                armed = r() < 0.85  # visible >= 2/3 for >= 1.5 s
                if armed:
                    dwell = int(1500 + rng.expovariate(1 / 3000))
                    ts = t + 1500
                    rest = (f'{page_json}"itemId":"item-{item}","impressionId":"{impression}","modelInfo":"{model_name}",'
                            f'"feedPosition":{position},"visibleRatio":{rng.uniform(0.667, 1.0):.3f},"dwellMs":{dwell},'
                            f'"clientTimezoneOffsetMinutes":{offset}}}')
                    out((ts, 'x', f'{{"eventId":"{uuid7(ts)}",{head}"clientTimestampMs":{ts},{rest}'))
                    if r() < 0.004:  # the client fires the same exposure twice
                        ts += rng.randrange(100, 5000)
                        out((ts, 'x', f'{{"eventId":"{uuid7(ts)}",{head}"clientTimestampMs":{ts},{rest}'))
                    t += dwell
                if r() < (0.05 if armed else 0.01):
                    t = self.feedback(u, t, impression, model_name, dislike_share, position, refresh_id, item, offset)
        return t

    def feedback(self, u, t, impression, model_name, dislike_share, position, refresh_id, item, offset):
        r, rng = self.rand, self.rng
        context = (f'"context":{{"impressionId":"{impression}","modelInfo":"{model_name}","feedPosition":{position},'
                   f'"businessPayload":{{"refreshId":"{refresh_id}","itemId":"item-{item}"}}}}')
        kind = 'dislike' if r() < dislike_share * (1 + position / 60) else 'like'
        reactions = [kind]
        if r() < 0.08:
            reactions.append('neutral')  # taken back
        elif r() < 0.04:
            reactions.append('like' if kind == 'dislike' else 'dislike')
        for reaction in reactions:
            t += rng.randrange(300, 6000)
            x = r()
            stamp = t if x < 0.3 else f'"{iso(t, offset if x < 0.45 else None, x >= 0.6)}"'
            reason = f'"reason":"{rng.choice(REASONS)}",' if reaction == 'dislike' and r() < 0.7 else ''
            self.out.append((t, 'f', f'{{"id":"{self.uuid7(t)}","timestamp":{stamp},"feedbackType":"{reaction}",{context},'
                                     f'{u.user_json}{reason}"clientTimezoneOffsetMinutes":{offset}}}'))
        return t


def make_users(rng, seed, count, days):
    weights = sorted((rng.lognormvariate(0, 0.5) for _ in range(count)), reverse=True)
    zones = rng.choices(TIMEZONES, weights=[z[2] for z in TIMEZONES], k=count)
    users = [User(f'u{seed}-{i:03d}', zones[i][0], zones[i][1], weights[i],
                  0 if i == 0 or rng.random() < 0.5 else rng.randrange(int(days * 0.6) + 1), rng)
             for i in range(count)]
    users[0].habit = 0.95  # the most active user: a handy --user for benchmarks
    return users


def bad_line(code, t, rng, gen):
    """A line that `ingest` rejects with `code`, around time t."""
    eid = gen.uuid7(t)
    reading = '{"eventId":"%s","clientSessionId":"s-x","materialId":"m-00","eventType":"%s","clientTimestampMs":%d,"activeSecondsDelta":%d,"clientTimezoneOffsetMinutes":%d,"userId":"u-bad"}'
    if code == 'INVALID_JSON':
        return (reading % (eid, 'heartbeat', t, 15, 0))[:rng.randrange(20, 90)]
    if code == 'INVALID_EVENT_TYPE':
        return reading % (eid, 'teleported', t, 15, 0)
    if code == 'MISSING_FIELD':
        return (reading % (eid, 'heartbeat', t, 15, 0)).replace(f'"eventId":"{eid}",', '')
    if code == 'INVALID_FIELD':
        return reading % (eid, 'heartbeat', t, 15, 9000)
    if code == 'INVALID_ACTIVE_SECONDS':
        return reading % (eid, 'heartbeat', t, 4000, 0)
    return ('{"id":"%s","timestamp":"yesterday at 10","feedbackType":"dislike","context":{"impressionId":"imp-x",'
            '"modelInfo":"rec-v12","feedPosition":1},"userId":"u-bad"}' % eid)


def with_noise(events, total, bad, duplicates, rng, gen, codes):
    """Yields the lines of `events` (`total` of them), with `bad` rejected lines and `duplicates`
    re-sent lines mixed in at random places."""
    bad_at = sorted(rng.sample(range(total), min(bad, total)))
    dup_of = set(rng.sample(range(total), min(duplicates, total)))
    resend = {}
    code = itertools.cycle(codes)
    b = 0
    for k, (t, _family, line) in enumerate(events):
        while b < len(bad_at) and bad_at[b] == k:
            yield bad_line(next(code), t, rng, gen)
            b += 1
        yield line
        if k in dup_of:
            resend.setdefault(k + rng.randrange(1, max(2, min(2000, total // 20))), []).append(line)
        yield from resend.pop(k, ())
    for lines in resend.values():
        yield from lines


def write_lines(path, fmt, lines, gzipped=False):
    """Writes lines as NDJSON, a JSON array ('array') or an upload body {"events": [...]} ('batch'),
    gzipped (reproducibly: no name, no time in the header) if asked or if path ends with .gz."""
    sep, head, foot = {'ndjson': ('\n', '', '\n'), 'array': (',\n', '[\n', '\n]\n'),
                       'batch': (',\n', '{"events": [\n', '\n]}\n')}[fmt]
    with contextlib.ExitStack() as stack:
        if path == '-':
            f = sys.stdout.buffer
        else:
            os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
            f = stack.enter_context(open(path, 'wb'))
        if gzipped or path.endswith('.gz'):
            f = stack.enter_context(gzip.GzipFile(filename='', mode='wb', fileobj=f, compresslevel=6, mtime=0))
        f.write(head.encode())
        it = iter(lines)
        chunk = list(itertools.islice(it, 20_000))
        while chunk:
            f.write(sep.join(chunk).encode())
            chunk = list(itertools.islice(it, 20_000))
            if chunk:
                f.write(sep.encode())
        f.write(foot.encode())
        f.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split('\n', 1)[1])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--events', type=int, help='distinct valid events (default: what --users/--days produce)')
    ap.add_argument('--users', type=int, help='default: enough for --events at a natural rate, at least 6')
    ap.add_argument('--days', type=int, help='default: 365, fewer for a small --events')
    ap.add_argument('--end', default=DEFAULT_END, help='no event after this instant (default %(default)s)')
    ap.add_argument('--out', help='file, directory, or - for stdout')
    ap.add_argument('--format', choices=['ndjson', 'array', 'batch'], default='ndjson')
    ap.add_argument('--gzip', action='store_true', help='gzip the output (also implied by a .gz name)')
    ap.add_argument('--bad-lines', type=int, default=0)
    ap.add_argument('--duplicates', type=int, default=0)
    ap.add_argument('--user-seed', type=int,
                    help='draw the users from a seed of their own (ids u<user-seed>-<index>), so that files of '
                         'other --seed and later --end continue the same users (default: from --seed)')
    ap.add_argument('--key', choices=['v7', 'v4'], default='v7',
                    help='event ids: UUIDv7 of the event time (default) or random UUIDv4')
    a = ap.parse_args()
    if not a.out or (a.events is None and a.users is None):
        ap.error('give --out and --events N or --users U (with --days D)')
    rng = random.Random(a.seed)
    days = a.days or (365 if a.events is None else min(365, max(7, a.events // (6 * NATURAL_EVENTS_PER_USER_DAY))))
    users = a.users or max(6, round(a.events / (days * NATURAL_EVENTS_PER_USER_DAY)))
    events = a.events if a.events is not None else users * days * NATURAL_EVENTS_PER_USER_DAY
    path = a.out
    if path != '-' and (path.endswith('/') or os.path.isdir(path)):
        path = os.path.join(path, f'events-{a.seed}.' + ('ndjson' if a.format == 'ndjson' else 'json'))
    if a.gzip and not path.endswith('.gz') and path != '-':
        path += '.gz'
    key_rng = random.Random(f'v4-{a.seed}') if a.key == 'v4' else None
    people = (make_users(rng, a.seed, users, days) if a.user_seed is None
              else make_users(random.Random(f'users-{a.user_seed}'), a.user_seed, users, 1))  # all of them there from the start
    gen = Generator(rng, people, days, parse_instant(a.end), events, key_rng)
    codes = REJECTION_CODES if a.format == 'ndjson' else REJECTION_CODES[1:]
    write_lines(path, a.format, with_noise(gen, events, a.bad_lines, a.duplicates, rng, gen, codes), a.gzip)
    if gen.emitted < events:
        print(f'warning: only {gen.emitted} events: give more --users or --days', file=sys.stderr)


if __name__ == '__main__':
    main()
