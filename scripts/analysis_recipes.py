#!/usr/bin/env python3
"""Runs every recipe and worked example of docs/analysis.md against the sample data.

    scripts/analysis_recipes.py [--bin .build/debug/report] [--doc docs/analysis.md] [--write]

Ingests sample-data/ into a fresh tally.sqlite with the built `report`, then
- runs each ```python block that follows a `<!-- recipe checks: ARGS -->` line in the store's
  folder and compares its `result` (a pandas or polars data frame) with `report ARGS --format
  ndjson`: the same rows in the same order, every column the two share equal (numbers to 1e-9);
- runs each `$ report ...` line that opens a ```text block and compares the rest of the block
  with what the command prints (NO_COLOR); with --write, replaces it.
pandas, polars and DuckDB are pip-installed into .build/analysis-python when they cannot be
imported (DuckDB with its sqlite extension from PyPI when it cannot download it itself); a tool
that still cannot be used is reported as skipped. Exit status 1 when a check fails.
"""
import argparse
import glob
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRIVATE = os.path.join(ROOT, '.build', 'analysis-python')
# The newest DuckDB whose sqlite extension PyPI ships (duckdb-extension-sqlite-scanner).
DUCKDB_WITH_SQLITE = '1.5.5'

RECIPE = re.compile(r'<!-- recipe checks: (.+?) -->\n```python\n(.*?)```\n', re.S)
OUTPUT = re.compile(r'```text\n\$ report (.+?)\n(.*?)```\n', re.S)

# Runs one recipe, then writes its `result` as JSON rows to argv[2].
RUNNER = r'''
import datetime, decimal, json, math, sys
namespace = {"__name__": "__recipe__"}
exec(compile(open(sys.argv[1]).read(), "recipe", "exec"), namespace)
result = namespace["result"]
if hasattr(result, "to_dicts"):
    rows = result.to_dicts()
else:
    if type(result.index).__name__ != "RangeIndex":
        result = result.reset_index()
    rows = result.to_dict("records")
def plain(value):
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()[:10]
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
json.dump([{str(k): plain(v) for k, v in row.items()} for row in rows], open(sys.argv[2], "w"))
'''

PROBES = {
    'pandas': 'import pandas',
    'polars': 'import polars',
    'duckdb': "import duckdb; duckdb.connect().sql(\"ATTACH 'tally.sqlite' AS tally (TYPE sqlite, READ_ONLY)\")",
}


class Tools:
    """Which of pandas, polars and duckdb a recipe can use, and the environment to run it in."""

    def __init__(self, folder):
        self.folder = folder
        self.env = dict(os.environ)
        # DuckDB keeps extensions under $HOME/.duckdb: a private home keeps the user's untouched.
        self.env['HOME'] = os.path.join(folder, 'home')
        os.makedirs(self.env['HOME'], exist_ok=True)
        self.env['PYTHONPATH'] = os.pathsep.join(p for p in [PRIVATE, os.environ.get('PYTHONPATH', '')] if p)
        self.state = {}
        self.lay_out_duckdb_extension()

    def probe(self, tool):
        run = subprocess.run([sys.executable, '-c', PROBES[tool]], cwd=self.folder, env=self.env,
                             capture_output=True, text=True, timeout=300)
        return run.returncode == 0, (run.stderr.strip().splitlines() or [''])[-1]

    def pip(self, *packages):
        run = subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check',
                              '--target', PRIVATE, '--upgrade', *packages], capture_output=True, text=True, timeout=900)
        return run.returncode == 0, (run.stderr.strip().splitlines() or [''])[-1]

    def lay_out_duckdb_extension(self):
        """Puts the sqlite extension of the PyPI package where DuckDB looks for it."""
        found = glob.glob(os.path.join(PRIVATE, 'duckdb_extension_sqlite_scanner', 'extensions', '*', 'sqlite_scanner.duckdb_extension'))
        if not found:
            return
        platform = subprocess.run([sys.executable, '-c', "import duckdb; print(duckdb.sql('PRAGMA platform').fetchone()[0])"],
                                  env=self.env, capture_output=True, text=True).stdout.strip() or 'linux_amd64'
        version = os.path.basename(os.path.dirname(found[0]))
        target = os.path.join(self.env['HOME'], '.duckdb', 'extensions', version, platform)
        os.makedirs(target, exist_ok=True)
        shutil.copy(found[0], target)

    def available(self, tool):
        """True when `tool` works (installing it first if needed); else the reason it is skipped."""
        if tool in self.state:
            return self.state[tool]
        ok, why = self.probe(tool)
        if not ok:
            packages = [f'duckdb=={DUCKDB_WITH_SQLITE}', f'duckdb-extension-sqlite-scanner=={DUCKDB_WITH_SQLITE}'] \
                if tool == 'duckdb' else [tool]
            print(f'   installing {" ".join(packages)} into {os.path.relpath(PRIVATE, ROOT)} ({why})', flush=True)
            installed, pip_why = self.pip(*packages)
            if not installed:
                why = f'pip install failed: {pip_why}'
            else:
                if tool == 'duckdb':
                    self.lay_out_duckdb_extension()
                ok, why = self.probe(tool)
        self.state[tool] = True if ok else why
        return self.state[tool]


def tools_of(code):
    return [tool for tool in ('duckdb', 'polars', 'pandas') if re.search(rf'^\s*import {tool}\b', code, re.M)]


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def compare(rows, expected):
    """The first difference between a recipe's rows and the report's, or None."""
    if len(rows) != len(expected):
        return f'{len(rows)} rows, the report has {len(expected)}'
    shared = [key for key in (rows[0] if rows else {}) if key in (expected[0] if expected else {})]
    if rows and len(shared) < 2:
        return f'shares only {shared} with the report\'s columns {list(expected[0])}'
    for index, (row, want) in enumerate(zip(rows, expected)):
        for key in shared:
            if not same(row[key], want[key]):
                return f'row {index + 1}, {key}: {row[key]!r}, the report says {want[key]!r}'
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--bin', default=os.path.join(ROOT, '.build', 'debug', 'report'))
    parser.add_argument('--doc', default=os.path.join(ROOT, 'docs', 'analysis.md'))
    parser.add_argument('--write', action='store_true', help='replace the output blocks with what the commands print')
    args = parser.parse_args()
    report = os.path.abspath(args.bin)
    doc = open(args.doc, encoding='utf-8').read()

    folder = tempfile.mkdtemp(prefix='tally-analysis-')
    try:
        env = dict(os.environ, NO_COLOR='1')
        env.pop('TALLY_DB', None)

        def run_report(arguments):
            return subprocess.run([report, *arguments], cwd=folder, env=env, capture_output=True, text=True, timeout=600)

        ingest = run_report(['ingest', *sorted(glob.glob(os.path.join(ROOT, 'sample-data', '*.ndjson*'))), '--format', 'json'])
        if ingest.returncode != 0:
            sys.exit(f'report ingest failed: {ingest.stderr}')
        print(f'== sample-data ingested into {folder}/tally.sqlite: {json.loads(ingest.stdout)}')

        passed, failed, skipped = 0, 0, 0
        tools = Tools(folder)
        print('== recipes')
        for number, match in enumerate(RECIPE.finditer(doc), start=1):
            checks, code = match.group(1), match.group(2)
            label = f'recipe {number} ({", ".join(tools_of(code))}) against report {checks}'
            missing = [(tool, why) for tool in tools_of(code) if (why := tools.available(tool)) is not True]
            if missing:
                skipped += 1
                print(f'skipped: {label}: ' + '; '.join(f'{tool} cannot be used ({why})' for tool, why in missing))
                continue
            recipe_file = os.path.join(folder, f'recipe{number}.py')
            rows_file = os.path.join(folder, f'recipe{number}.json')
            with open(recipe_file, 'w') as out:
                out.write(code)
            run = subprocess.run([sys.executable, '-c', RUNNER, recipe_file, rows_file], cwd=folder, env=tools.env,
                                 capture_output=True, text=True, timeout=600)
            expected = run_report([*shlex.split(checks), '--format', 'ndjson'])
            if run.returncode != 0 or expected.returncode != 0:
                failed += 1
                print(f'FAILED: {label}: ' + (run.stderr.strip() or expected.stderr.strip()))
                continue
            rows = json.load(open(rows_file))
            difference = compare(rows, [json.loads(line) for line in expected.stdout.split('\n') if line])
            if difference:
                failed += 1
                print(f'FAILED: {label}: {difference}')
            else:
                passed += 1
                print(f'ok: {label}: {len(rows)} rows')

        print('== worked examples')
        replacements = []
        for match in OUTPUT.finditer(doc):
            command, shown = match.group(1), match.group(2)
            output = run_report(shlex.split(command))
            if output.returncode != 0:
                failed += 1
                print(f'FAILED: report {command}: exit {output.returncode}: {output.stderr.strip()}')
                continue
            if args.write:
                replacements.append((match.start(), match.end(), f'```text\n$ report {command}\n{output.stdout}```\n'))
                print(f'written: report {command}')
            elif shown == output.stdout:
                passed += 1
                print(f'ok: report {command}')
            else:
                failed += 1
                print(f'FAILED: report {command}: docs/analysis.md shows other output (scripts/analysis_recipes.py --write updates it)')
        rewritten = doc
        for start, end, block in reversed(replacements):
            rewritten = rewritten[:start] + block + rewritten[end:]
        if rewritten != doc:
            with open(args.doc, 'w', encoding='utf-8') as out:
                out.write(rewritten)

        if passed or failed:
            print(f'analysis: {passed} passed, {failed} failed, {skipped} skipped')
        else:
            print(f'analysis: nothing checked, {skipped} skipped')
        sys.exit(1 if failed else 0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == '__main__':
    main()
