#!/usr/bin/env python3
"""Writes every figure of README.md's performance section, the Performance article and
Benchmarks/README.md from one run.

    python3 Benchmarks/figures.py           # rewrite the generated blocks from the JSON
    python3 Benchmarks/figures.py --check   # fail if a block differs from what the JSON says

The figures come from Benchmarks/results.json (written by
`events-benchmark --json=Benchmarks/results.json`) and Benchmarks/instructions.json (written by
Benchmarks/instructions.sh under callgrind); before/after comparisons take their "before" from
committed files: instructions-before-flow.json (issue 33), instructions-before-registration.json
and registration-before.json (issue 34). So the three pages can never quote different runs, and
a number that none of these files holds is not written in them. Each generated block sits
between

    <!-- figures:begin NAME (...) -->   and   <!-- figures:end NAME -->

and is replaced whole: edit the templates below, not the text between the markers. The charts
(Docs/Events.docc/Resources/*.svg) come from the same run:
`events-benchmark charts Benchmarks/results.json Docs/Events.docc/Resources`.

Beside each ratio is its spread within the run: the ratio of the fastest sample of one side to
the slowest of the other, both ways. A median ratio that moves inside that range between runs
is noise.
"""

import difflib
import json
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "Benchmarks", "results.json")
# Written by Benchmarks/instructions.sh (callgrind); optional: without it the instruction
# columns say "not counted", so neither the pages nor --check need valgrind.
INSTRUCTIONS = os.path.join(ROOT, "Benchmarks", "instructions.json")
PAGES = {
    "README.md": ["readme-performance"],
    "Docs/Events.docc/Performance.md": ["performance-results", "performance-registration",
                                        "performance-keyed"],
    "Benchmarks/README.md": ["benchmarks-results", "benchmarks-registration",
                             "benchmarks-additions", "benchmarks-keyed", "benchmarks-flow",
                             "benchmarks-left"],
}
# Issue 34's "before": its Measured table of registration (instructions, allocations, wall time
# beside Foundation's), each row with its source, and the target for each case.
REGISTRATION_BEFORE = os.path.join(ROOT, "Benchmarks", "registration-before.json")
# The instruction counts of the run before issue 34 changed registration (commit 86168fc): what
# its "posts stay within 5% of today's" is measured against.
INSTRUCTIONS_BEFORE_REGISTRATION = os.path.join(ROOT, "Benchmarks",
                                                "instructions-before-registration.json")
# The instruction counts of the run before the flow issue (33) changed the post path: what its
# target "within 5% of today's" is measured against. Written once, by instructions.sh.
INSTRUCTIONS_BEFORE_FLOW = os.path.join(ROOT, "Benchmarks", "instructions-before-flow.json")
# The observer counts of the queue cases.
QUEUE_OBSERVERS = [1, 10, 100, 1000]
QUEUE_OBSERVERS_AND_ZERO = [0] + QUEUE_OBSERVERS

# Issue 32's request/reply cases: N requests in flight at once (figures per N).
REQUESTS = [1000, 2000, 4000, 8000, 10000]
# reply.event (one Event and a predicate per request) is quadratic: measured at these N only.
EVENT_REQUESTS = [1000, 2000, 4000]


class Run:
    def __init__(self, path):
        with open(path, encoding="utf-8") as file:
            self.report = json.load(file)
        self.cases = {case["id"]: case for case in self.report["results"]}

    def case(self, case_id):
        try:
            return self.cases[case_id]
        except KeyError:
            sys.exit(f"error: results.json has no case {case_id}; re-run the benchmark")

    def median(self, case_id, per=1):
        return self.case(case_id)["statistic"]["median"] / per

    def allocations(self, case_id, per=1):
        return self.case(case_id)["allocationsPerOperation"] / per

    def spread(self, case_id):
        statistic = self.case(case_id)["statistic"]
        return statistic["min"], statistic["median"], statistic["max"]

    def extra(self, case_id, name):
        extra = self.case(case_id)["extras"][name]
        return extra["min"], extra["median"], extra["max"]

    def target(self, prefix):
        for target in self.report["targets"]:
            if target["target"].startswith(prefix):
                return target
        sys.exit(f"error: results.json has no target starting {prefix!r}")


def ratio_of(numerator, denominator):
    """(low, median, high) of numerator / denominator, each given as (min, median, max)."""
    return (numerator[0] / denominator[2], numerator[1] / denominator[1],
            numerator[2] / denominator[0])


def number(value):
    if value == 0:
        return "0"
    if value >= 100:
        return f"{round(value):,}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def time(nanoseconds):
    if nanoseconds >= 1_000_000:
        return f"{number(nanoseconds / 1_000_000)} ms"
    if nanoseconds >= 1_000:
        return f"{number(nanoseconds / 1_000)} µs"
    return f"{number(nanoseconds)} ns"


def millions(value):
    return f"{value / 1_000_000:.2g}" if value < 1_000_000 else f"{value / 1_000_000:.1f}"


def times(triple):
    """A ratio as `2.65x (2.51x–2.80x)`."""
    low, median, high = triple
    return f"{median:.2f}x ({low:.2f}x–{high:.2f}x)"


def allocations(value):
    if value == 1:
        return "1 allocation"
    if float(value).is_integer():
        return f"{int(value)} allocations"
    return f"{number(value)} allocations"


def figures(run):
    """Every figure the templates quote, by name."""
    f = {}
    f["machine"] = run.report["machine"].removeprefix("Machine: ").rstrip(".")
    f["settings"] = run.report["settings"].rstrip(".")

    f["sub1"] = time(run.median("event.subscribe/1"))
    f["sub1_alloc"] = allocations(run.allocations("event.subscribe/1"))
    f["nc1"] = time(run.median("nc.block/1"))
    f["nc1_alloc"] = allocations(run.allocations("nc.block/1"))

    f["sub1000"] = time(run.median("event.subscribe/1000", 1000))
    f["sub1000_alloc"] = allocations(run.allocations("event.subscribe/1000"))
    f["nc1000"] = time(run.median("nc.block/1000", 1000))
    f["nc1000_alloc"] = allocations(run.allocations("nc.block/1000"))
    f["mutex1000"] = time(run.median("baseline.mutex/1000", 1000))

    f["handler10"] = time(run.median("event.handler/10", 10))
    f["handler10_alloc"] = allocations(run.allocations("event.handler/10"))
    f["weak10"] = time(run.median("baseline.weak/10", 10))
    f["notify10"] = time(run.median("broadcaster.notify/10", 10))
    f["notify10_alloc"] = allocations(run.allocations("broadcaster.notify/10"))

    f["raii1000"] = time(run.median("raii.observe/1000", 1000))
    f["raii1000_alloc"] = allocations(run.allocations("raii.observe/1000"))
    f["object1000"] = time(run.median("raii.object/1000", 1000))
    f["ncobject1000"] = time(run.median("nc.object/1000", 1000))
    f["object1"] = time(run.median("raii.object/1"))
    f["ncobject1"] = time(run.median("nc.object/1"))
    f["others"] = time(run.median("raii.others/1000"))
    f["ncothers"] = time(run.median("nc.others/1000"))

    f["check"] = time(run.median("receiver.check/1"))
    f["check_alloc"] = allocations(run.allocations("receiver.check/1"))

    f["churn"] = time(run.median("churn.subscribe/1000"))
    f["churn_alloc"] = allocations(round(run.allocations("churn.subscribe/1000")))
    f["churnnc"] = time(run.median("churn.nc/1000"))
    f["churnnc_alloc"] = allocations(round(run.allocations("churn.nc/1000")))
    churn = [ratio_of(run.spread(f"churn.{kind}/1000"), run.spread("churn.nc/1000"))
             for kind in ("subscribe", "register", "broadcaster", "raii")]
    f["churn_range"] = (f"{min(c[1] for c in churn):.2f}x to {max(c[1] for c in churn):.2f}x, "
                        f"{min(c[0] for c in churn):.2f}x to {max(c[2] for c in churn):.2f}x "
                        f"across samples")

    posts = ratio_of(run.extra("contention.nc/10", "posts/s"),
                     run.extra("contention.event/10", "posts/s"))
    f["posts_event"] = millions(run.extra("contention.event/10", "posts/s")[1])
    f["posts_nc"] = millions(run.extra("contention.nc/10", "posts/s")[1])
    f["stall_event"] = time(run.extra("contention.event/10", "longest churn ms")[2] * 1e6)
    f["stall_mutex"] = time(run.extra("contention.mutex/10", "longest churn ms")[2] * 1e6)
    f["churns_event"] = f"{run.extra('contention.event/10', 'churns/s')[1]:,.0f}"
    f["churns_nc"] = f"{run.extra('contention.nc/10', 'churns/s')[1]:,.0f}"
    f["posts_ratio"] = (
        f"{run.extra('contention.event/10', 'posts/s')[1] / run.extra('contention.nc/10', 'posts/s')[1]:.1f}"
        + " times"
    )
    f["subscribe_mutex_1000"] = f"{run.case('event.subscribe/1000')['ratios']['mutex']['value']:.2f}x"

    f["progress"] = time(run.median("progress.broadcaster") * 1e6)
    f["progressnc"] = time(run.median("progress.nc") * 1e6)
    f["progress_event_nc"] = times(ratio_of(run.spread("progress.event"),
                                            run.spread("progress.nc")))

    f["opaque_alloc"] = f"{run.allocations('event.function.opaque/1000', 1000):g}"
    f["zero_alloc"] = run.target("Zero heap allocations per synchronous post")["detail"]

    notify = [ratio_of(run.spread(f"broadcaster.notify/{n}"), run.spread(f"baseline.weak/{n}"))
              for n in (1, 10, 100, 1000)]
    f["notify_range"] = (f"{min(r[1] for r in notify):.2f}x to "
                         f"{max(r[1] for r in notify):.2f}x")

    f["sub1_ns"] = f"{run.median('event.subscribe/1'):.0f} ns"
    f["sub1000_ns"] = f"{run.median('event.subscribe/1000', 1000):.0f} ns"
    f["nc1_ns"] = f"{run.median('nc.block/1'):.0f} ns"
    f["nc1000_ns"] = f"{run.median('nc.block/1000', 1000):.0f} ns"
    f["weak_low"] = f"{min(run.median('event.handler/10', 10), run.median('broadcaster.notify/10', 10)):.0f}"
    f["weak_high"] = f"{max(run.median('event.handler/10', 10), run.median('broadcaster.notify/10', 10)):.0f}"
    f["raii1000_ns"] = f"{run.median('raii.observe/1000', 1000):.0f} ns"

    def split(name, triple, speed=None):
        low, median, high = triple
        f["r_" + name] = f"{median:.2f}"
        f["s_" + name] = f"{low:.2f}–{high:.2f}"
        if speed:
            f["x_" + name] = f"{1 / median:.1f}x {speed}"

    split("sub1_nc", ratio_of(run.spread("event.subscribe/1"), run.spread("nc.block/1")), "faster")
    split("sub1000_nc", ratio_of(run.spread("event.subscribe/1000"), run.spread("nc.block/1000")),
          "faster")
    split("handler10_weak", ratio_of(run.spread("event.handler/10"), run.spread("baseline.weak/10")))
    split("notify10_weak",
          ratio_of(run.spread("broadcaster.notify/10"), run.spread("baseline.weak/10")))
    split("object1000_nc", ratio_of(run.spread("raii.object/1000"), run.spread("nc.object/1000")))
    split("object1_nc", ratio_of(run.spread("raii.object/1"), run.spread("nc.object/1")))
    split("posts", posts, "the throughput")
    split("churn_nc", ratio_of(run.spread("churn.subscribe/1000"), run.spread("churn.nc/1000")))
    split("sub1000_mutex",
          ratio_of(run.spread("event.subscribe/1000"), run.spread("baseline.mutex/1000")))
    split("raii1000_nc", ratio_of(run.spread("raii.observe/1000"), run.spread("nc.block/1000")))
    split("others_nc", ratio_of(run.spread("raii.others/1000"), run.spread("nc.others/1000")))
    split("progress_nc",
          ratio_of(run.spread("progress.broadcaster"), run.spread("progress.nc")))

    f["targets"] = targets_table(run.report["targets"], instructions())
    f["post_alloc"] = post_allocations(run)
    f["churn_phrase"] = ", ".join(
        f"{name} {times(ratio_of(run.spread(f'churn.{kind}/1000'), run.spread('churn.nc/1000')))}"
        for kind, name in (("subscribe", "`subscribe` + `cancel`"),
                           ("handler", "`register(_:handler:)` + `unregister`"),
                           ("register", "`register(_:function:)` + `unregister`"),
                           ("broadcaster", "`Broadcaster.register` + `unregister`"),
                           ("raii", "EventRAII `observe` + `cancel`")))
    f["churn_phrase"] += " of its time"
    keyed_figures(run, f, instructions())
    flow_figures(run, f, instructions())
    registration_figures(run, f, instructions())
    additions_figures(run, f)
    left_figures(run, f)
    f["results_table"] = results_table(run)
    f["counter"] = run.report["counter"]
    return f


# The synchronous post families that issue 7's target holds to no allocation.
SYNCHRONOUS_POSTS = ["event.subscribe", "event.function", "event.handler", "broadcaster.notify",
                     "receiver.check", "receiver.complete"]


def post_allocations(run):
    """Which synchronous posts allocate, and how much, in words."""
    allocating = {}
    for family in SYNCHRONOUS_POSTS:
        for n in QUEUE_OBSERVERS_AND_ZERO:
            value = run.allocations(f"{family}/{n}")
            if value:
                allocating.setdefault(family, set()).add(number(value))
    if not allocating:
        return "none, in every case of the run"
    return "none, except " + " and ".join(
        f"`{family}`, {' or '.join(sorted(values))} per call" for family, values in allocating.items())


def flow_figures(run, f, counts):
    """Issue 33's figures: queued posts with and without a bound, and the synchronous post
    path's instructions before and after the flow changes."""
    rows = []
    for n in QUEUE_OBSERVERS:
        cells = []
        for case in ("queue.dispatch", "queue.event", "queue.bounded", "queue.full"):
            cell = (f"{time(run.median(f'{case}/{n}', n))}, "
                    f"{number(run.allocations(f'{case}/{n}', n))}")
            cells.append(cell)
        rows.append(f"| {n:,} | " + " | ".join(cells) + " |")
    f["flow_queue_table"] = "\n".join(
        ["| Observers | `DispatchQueue.async` per observer | `.queue(q)`, unbounded | "
         "`.dropOldest(64)`, consumer keeping up | `.dropOldest(64)`, backlog full |",
         "|--:|---|---|---|---|"] + rows)
    with open(INSTRUCTIONS_BEFORE_FLOW, encoding="utf-8") as file:
        before = json.load(file)
    post_rows = []
    within = True
    for n in (0, 1, 10, 100, 1000):
        case = f"event.subscribe/{n}"
        if not counts or case not in counts or case not in before:
            post_rows.append(f"| {n:,} | {before.get(case, 0):,.0f} | not counted | |")
            within = False
            continue
        change = counts[case] / before[case] - 1
        # "Within 5%" includes 5% itself: 84 against 80 is within.
        within = within and before[case] * 0.95 <= counts[case] <= before[case] * 1.05
        post_rows.append(f"| {n:,} | {before[case]:,.0f} | {counts[case]:,.0f} | "
                         f"{change * 100:+.1f}% |")
    f["flow_post_table"] = "\n".join(
        ["| Observers | Instructions per post before | After | Change |",
         "|--:|--:|--:|--:|"] + post_rows)
    f["flow_post_verdict"] = "met" if within else "missed"
    f["flow_post_alloc"] = ", ".join(
        number(run.allocations(f"event.subscribe/{n}")) for n in (1, 10, 100, 1000))


def keyed_figures(run, f, counts):
    """Issue 32's figures: the request/reply table, the doublings, the keyed post's
    instructions, and the verdicts of its targets."""
    rows = []
    for n in REQUESTS:
        base = run.spread(f"reply.baseline/{n}")
        keyed = run.spread(f"reply.keyed/{n}")
        untimed = run.spread(f"reply.keyed.untimed/{n}")
        event = (f"{time(run.median(f'reply.event/{n}') * 1e6)}"
                 if n in EVENT_REQUESTS else "not run")
        per = lambda case: time(run.median(case) * 1e6 / n)
        rows.append(
            f"| {n:,} | {time(base[1] * 1e6)} ({per(f'reply.baseline/{n}')}), "
            f"{number(run.allocations(f'reply.baseline/{n}'))} | "
            f"{time(keyed[1] * 1e6)} ({per(f'reply.keyed/{n}')}), "
            f"{number(run.allocations(f'reply.keyed/{n}'))} | "
            f"{times(ratio_of(keyed, base))} | "
            f"{time(untimed[1] * 1e6)}, {number(run.allocations(f'reply.keyed.untimed/{n}'))} | "
            f"{event} |")
    f["reply_table"] = "\n".join(
        ["| Requests in flight | Dictionary of continuations (per request), allocations per "
         "request | `KeyedEvent`, timeout 30 s (per request), allocations per request | "
         "`KeyedEvent` over the dictionary | `KeyedEvent` without timeout, allocations | "
         "`Event.next(where:)` |",
         "|--:|---|---|---|---|---|"] + rows)
    doublings = []
    for small, large in zip(REQUESTS, REQUESTS[1:]):
        if large != 2 * small:
            continue
        doublings.append(f"{small // 1000}k to {large // 1000}k "
                         f"{times(ratio_of(run.spread(f'reply.keyed/{large}'), run.spread(f'reply.keyed/{small}')))}")
    f["reply_doublings"] = ", ".join(doublings)
    event_doublings = [
        f"{small // 1000}k to {large // 1000}k "
        f"{run.median(f'reply.event/{large}') / run.median(f'reply.event/{small}'):.2f}x"
        for small, large in zip(EVENT_REQUESTS, EVENT_REQUESTS[1:])]
    f["reply_event_doublings"] = ", ".join(event_doublings)
    f["reply10k"] = times(ratio_of(run.spread("reply.keyed/10000"),
                                   run.spread("reply.baseline/10000")))

    def verdict(prefix):
        met = run.target(prefix).get("met")
        return {True: "met", False: "missed", None: "not run"}[met]

    f["reply_10k_verdict"] = verdict("Request/reply: 10,000 requests in flight")
    f["reply_linear_verdict"] = verdict("Request/reply: linear")

    post_rows = []
    post_verdicts = []
    for n in (1, 10):
        keyed, event = run.spread(f"keyed.post/{n}"), run.spread(f"event.subscribe/{n}")
        if counts and f"keyed.post/{n}" in counts and f"event.subscribe/{n}" in counts:
            ours, theirs = counts[f"keyed.post/{n}"], counts[f"event.subscribe/{n}"]
            counted = f"{ours:,.0f} / {theirs:,.0f} Ir = {ours / theirs:.2f}x"
            post_verdicts.append(f"N={n} {'met' if ours / theirs <= 1.5 else 'missed'}")
        else:
            counted = "not counted (run Benchmarks/instructions.sh)"
            post_verdicts.append(f"N={n} not counted")
        post_rows.append(f"| {n} | {time(keyed[1])}, {allocations(run.allocations(f'keyed.post/{n}'))} "
                         f"| {time(event[1])} | {times(ratio_of(keyed, event))} | {counted} |")
    f["keyed_post_table"] = "\n".join(
        ["| Observers on the key | `KeyedEvent.post(_:to:)`, 10,000 other live keys | "
         "`Event.post`, same observers | Time ratio | Instructions per post (callgrind), ratio |",
         "|--:|---|---|---|---|"] + post_rows)
    f["keyed_post_verdict"] = ", ".join(post_verdicts)


def verdict_word(met):
    return {True: "met", False: "missed", None: "not counted"}[met]


def registration_figures(run, f, counts):
    """Issue 34's figures: registration before and after, in instructions, allocations and wall
    time beside Foundation's from the same run; and the post paths it must leave as they were."""
    with open(REGISTRATION_BEFORE, encoding="utf-8") as file:
        before = json.load(file)
    counts = counts or {}
    foundation_case = before["foundation"]["case"]
    foundation_ir = counts.get(foundation_case)
    foundation = run.spread(foundation_case)
    rows = []
    sources = []
    for case in before["cases"]:
        case_id = case["case"]
        after_ir = counts.get(case_id)
        after_alloc = run.allocations(case_id)
        target = case["target"]
        if "instructions" in target:
            limit_ir = target["instructions"]
            target_text = f"≤ {limit_ir:,} Ir, ≤ {allocations(target['allocations'])}"
        else:
            limit_ir = (target["foundation_ratio"] * foundation_ir
                        if foundation_ir is not None else None)
            target_text = (f"≤ {target['foundation_ratio']}x Foundation's Ir, "
                           f"≤ {allocations(target['allocations'])}")
        # Allocations per operation are averages over the loop: a rare purge or growth adds a
        # fraction, so the target is on the rounded figure.
        alloc_met = round(after_alloc) <= target["allocations"]
        met = None if after_ir is None or limit_ir is None else (after_ir <= limit_ir and alloc_met)
        ir_cell = "not counted" if after_ir is None else f"{after_ir:,.0f}"
        wall = run.spread(case_id)
        rows.append(
            f"| {case['name']} | {case['instructions']:,.0f} | {ir_cell} | "
            f"{case['allocations']} | {number(after_alloc)} | "
            f"{time(case['wall_ns'])} against {time(case['foundation_wall_ns'])} | "
            f"{time(wall[1])} against {time(foundation[1])}, "
            f"{times(ratio_of(wall, foundation))} | {target_text} | {verdict_word(met)} |")
        if case["source"] not in sources:
            sources.append(case["source"])
        f["reg_" + case_id.split("/")[0].removeprefix("churn.")] = verdict_word(met)
    rows.append(
        f"| Foundation's `addObserver` + `removeObserver` | "
        f"{before['foundation']['instructions']:,.0f} | "
        f"{'not counted' if foundation_ir is None else f'{foundation_ir:,.0f}'} | "
        f"{before['foundation']['allocations']} | {number(run.allocations(foundation_case))} | "
        f"| {time(foundation[1])} | | |")
    f["registration_table"] = "\n".join(
        ["| Registration and its end, 1,000 others | Instructions before | After | "
         "Allocations before | After | Wall before (Foundation's in that run) | "
         "Wall now against Foundation's, ratio (spread) | Target (issue 34) | Met |",
         "|---|--:|--:|--:|--:|---|---|---|---|"] + rows)
    f["registration_sources"] = "; ".join(
        f"{', '.join(c['name'] for c in before['cases'] if c['source'] == source)}: {source}"
        for source in sources)

    with open(INSTRUCTIONS_BEFORE_REGISTRATION, encoding="utf-8") as file:
        posts_before = json.load(file)
    post_rows = []
    within = True
    for n in (0, 1, 10, 100, 1000):
        case = f"event.subscribe/{n}"
        if case not in counts:
            post_rows.append(f"| `{case}` | {posts_before[case]:,.0f} | not counted | |")
            within = False
            continue
        change = counts[case] / posts_before[case] - 1
        within = within and abs(change) <= 0.05 + 1e-9
        post_rows.append(f"| `{case}` | {posts_before[case]:,.0f} | {counts[case]:,.0f} | "
                         f"{change * 100:+.1f}% |")
    f["registration_post_table"] = "\n".join(
        ["| Post | Instructions before | After | Change |", "|---|--:|--:|--:|"] + post_rows)
    f["registration_post_verdict"] = "met" if within else "missed"
    if "raii.object/1" in counts and "nc.object/1" in counts:
        ratio = counts["raii.object/1"] / counts["nc.object/1"]
        f["registration_object"] = (
            f"`raii.object/1` {counts['raii.object/1']:,.0f} against `nc.object/1` "
            f"{counts['nc.object/1']:,.0f} Ir, {ratio:.2f}x (limit 1.2x: "
            f"{'met' if ratio <= 1.2 else 'missed'}; in time "
            f"{times(ratio_of(run.spread('raii.object/1'), run.spread('nc.object/1')))})")
    else:
        f["registration_object"] = "`raii.object/1` not counted"
    if "receiver.check/1" in counts:
        check = counts["receiver.check/1"]
        f["registration_check"] = (f"`receiver.check/1` {check:,.0f} Ir (limit 400: "
                                   f"{'met' if check <= 400 else 'missed'})")
    else:
        f["registration_check"] = "`receiver.check/1` not counted"
    notify = sorted({number(run.allocations(f"broadcaster.notify/{n}")) for n in (0, 1, 10, 100, 1000)})
    f["notify_allocations"] = " or ".join(notify)


def results_table(run):
    """The whole run as the benchmark prints it: every case, its spread, allocations and ratios,
    then the contention cases' extra figures."""
    def cell(case_id, unit, value):
        if unit == "ms":
            return time(value * 1e6)
        if unit == "ns/post":
            return time(value) + "/post"
        return time(value)

    columns = ["array", "mutex", "counted", "weak", "NC"]
    lines = ["| Case | N | Median | Min–max | Per observer | Allocs/op | ×array | ×mutex | "
             "×counted | ×weak | ×NC |",
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for case in run.report["results"]:
        statistic, unit = case["statistic"], case["unit"]
        per = case.get("perObserver")
        cells = [f"`{case['family']}`", "" if case.get("observers") is None else str(case["observers"]),
                 cell(case["id"], unit, statistic["median"]),
                 f"{cell(case['id'], unit, statistic['min'])} – {cell(case['id'], unit, statistic['max'])}",
                 "" if per is None else time(per),
                 number(case["allocationsPerOperation"]) if case["allocationsPerOperation"] else "0"]
        cells += [f"{case['ratios'][c]['value']:.2f}x" if c in case["ratios"] else ""
                  for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    extras = [case for case in run.report["results"] if case["extras"]]
    lines += ["", "| Case | Posts/s | Longest stall | Churns/s | Longest churn |",
              "|---|--:|--:|--:|--:|"]
    for case in extras:
        e = case["extras"]
        lines.append(
            f"| `{case['id']}` | {e['posts/s']['median']:,.0f} (max {e['posts/s']['max']:,.0f}) | "
            f"{time(e['longest stall ms']['median'] * 1e6)} "
            f"(max {time(e['longest stall ms']['max'] * 1e6)}) | "
            f"{e['churns/s']['median']:,.0f} (max {e['churns/s']['max']:,.0f}) | "
            f"{time(e['longest churn ms']['median'] * 1e6)} "
            f"(max {time(e['longest churn ms']['max'] * 1e6)}) |")
    return "\n".join(lines)


def additions_figures(run, f):
    """Issue 14's cases: replay, once and async handlers against their baselines."""
    f["replay_row"] = ("| `replay.latest` | " + " | ".join(
        time(run.median(f"replay.latest/{n}")) for n in (0, 1, 10, 100, 1000))
        + f" | {number(max(run.allocations(f'replay.latest/{n}') for n in (0, 1, 10, 100, 1000)))} |")
    rows = []
    for case_id, name, base in (("once.nc", "`once.nc` (Foundation)", None),
                                ("once.subscribe", "`once.subscribe`", "once.nc"),
                                ("once.observe", "`once.observe`", "once.nc"),
                                ("async.stream/1", "`async.stream`", None),
                                ("async.subscribe/1", "`async.subscribe`", "async.stream/1")):
        against = (f"{times(ratio_of(run.spread(case_id), run.spread(base)))} "
                   f"`{base.split('/')[0]}`" if base else "")
        rows.append(f"| {name} | {time(run.median(case_id))} | "
                    f"{number(run.allocations(case_id))} | {against} |")
    f["once_table"] = "\n".join(["| Case | Median | Allocs/op | Against its baseline |",
                                 "|---|--:|--:|--:|"] + rows)


# Known causes of the targets a run may miss, by the start of the target's text: written once,
# here, and printed only while the run says the target is missed. Each says where the cost
# goes, not how much: the figures are the table's.
CAUSES = {
    "Broadcaster.notify within 1.3x": (
        "Each notify allocates its body's context, once per call (\"Why `Broadcaster.notify` "
        "allocates\", below), which the weak-box snapshot does not."),
    "Zero heap allocations per synchronous post": (
        "`Broadcaster.notify` allocates one context per call: its body is an escaping "
        "`@isolated(any)` closure, whose isolation Swift 6.3 keeps in a heap context that the "
        "caller allocates even when the closure captures nothing; neither a non-escaping body nor "
        "a plain-closure overload keeps the API's guarantees (\"Why `Broadcaster.notify` "
        "allocates\", below)."),
    "No regression: every synchronous post allocates nothing": (
        "The same context of `Broadcaster.notify`, one per call."),
    "Sender filters": (
        "EventRAII registers one unfiltered center observer per name, so a post that carries an "
        "object pays for Foundation's delivery to that observer, which costs Foundation more than "
        "its own `object:` lookup."),
    "Post path: raii.object": (
        "Foundation's delivery to EventRAII's one center observer of the name, as for the sender "
        "filters above."),
    "register(_:function:) allocates nothing per delivery": (
        "Where the method is handed over as a function value (`event.function.opaque`), calling "
        "it binds the method to its observer through a reabstraction thunk, which allocates a "
        "closure per delivery; Swift has no way to call an unbound method reference held as a "
        "function value without it. Written at the call site, the method is called directly."),
    "subscribeOnce / observeOnce": (
        "With no other observer of its name, `observeOnce` adds EventRAII's center observer for "
        "the name with the registration and removes it when the registration ends, on top of its "
        "own entry."),
    "Churn: every churn case": (
        "Each registration makes and frees its entry and its token (malloc, free, and the last "
        "release's slow path for each), and raises and lowers two unowned counts (the token's on "
        "its entry, the entry's on its list), and on Linux a third, its observer's, for a "
        "registration with one; `Broadcaster.register` also finds its channel and "
        "route and copies the observer's bytes, and EventRAII takes its channel registry's lock "
        "and lease (\"Registration (issue 34)\", above)."),
    "Churn: each churn case": (
        "As for issue 13's churn target, above."),
    "Churn: subscribe and register at most 2 allocations": (
        "`subscribe` allocates its handler's `@isolated(any)` context (the caller does, as for "
        "`Broadcaster.notify`), its entry and its token; `register(_:function:)` its entry and "
        "its token. An entry that is its own token would need `Subscription`, which API.md "
        "declares `public final class`, to have subclasses, and would keep a handler's captures "
        "alive for as long as the token is stored."),
    "Request/reply: linear": (
        "Wall time grows faster than instructions with the requests in flight, for the baseline "
        "as much as for `KeyedEvent`: the task group's own cache misses grow with N, so on a "
        "2-core machine the doublings' target is at the mercy of the harness."),
    "A post to one key": (
        "The lookup is one `Hasher` run over the key, the table's lock, the probe, and the retain "
        "and release of the key's event, on top of the `Event`'s post: at one observer the hash "
        "alone is more than half the budget."),
}


def left_figures(run, f):
    """What is left: every target the run misses, with its figures and, where known, its cause."""
    items = []
    for target in run.report["targets"]:
        if target.get("met") is not False:
            continue
        cause = next((text for prefix, text in CAUSES.items()
                      if target["target"].startswith(prefix)), None)
        item = f"- **Issue {target['issue']}: {target['target']}** ({target['detail'].strip()})."
        if cause:
            item += " " + cause
        items.append(item)
    f["left"] = "\n".join(items) if items else "Every target of the run is met."
    f["left_count"] = (f"{len(items)} of the run's {len(run.report['targets'])} targets are "
                       f"missed")


def instructions():
    """{case id: Ir per operation} from instructions.json, or None when there is none."""
    if not os.path.exists(INSTRUCTIONS):
        return None
    with open(INSTRUCTIONS, encoding="utf-8") as file:
        return json.load(file)


def instruction_cell(target, counts):
    """Each ratio of the target as `label 4,512 / 5,815 Ir = 0.78x`, where both are counted."""
    parts = []
    for ratio in target.get("ratios") or []:
        subject, baseline = counts.get(ratio["subject"]), counts.get(ratio["baseline"])
        if subject is None or not baseline:
            continue
        label = f"{ratio['label']} " if ratio["label"] else ""
        parts.append(f"{label}{subject:,.0f} / {baseline:,.0f} Ir = {subject / baseline:.2f}x")
    return ", ".join(parts)


def targets_table(targets, counts):
    """The targets table; with instruction counts, a column of Ir/op and their ratio beside the
    wall-time figures (callgrind's counts come from their own run, not the timed one)."""
    rows = []
    for target in targets:
        # A target whose cases did not run has no "met" in the JSON.
        met = {True: "yes", False: "no", None: "not run"}[target.get("met")]
        cells = [str(target["issue"]), target["target"], met, target["detail"].strip()]
        if counts is not None:
            cells.append(instruction_cell(target, counts))
        rows.append("| " + " | ".join(cells) + " |")
    if counts is None:
        header = "| Issue | Target | Met | Figures |\n|---|---|---|---|"
    else:
        header = ("| Issue | Target | Met | Figures | Instructions per operation (callgrind) |\n"
                  "|---|---|---|---|---|")
    return "\n".join([header] + rows)


TEMPLATES = {}

TEMPLATES["readme-performance"] = """\
Figures from one release run on the project's 2-core Linux machine
(`swift run -c release --package-path Benchmarks events-benchmark`, saved as
`Benchmarks/results.json`). A ratio is Events' time over the baseline's, below 1 when Events is
faster; its spread is its range across the samples of the run, so a difference inside it is
noise.

| Operation | Events | Baseline | Ratio | Spread |
|---|---|---|---|---|
| Post to 1 subscribed closure | {sub1} | `NotificationCenter`: {nc1} | {r_sub1_nc} ({x_sub1_nc}) | {s_sub1_nc} |
| Post to 1,000 subscribed closures, per observer | {sub1000} | `NotificationCenter`: {nc1000} | {r_sub1000_nc} ({x_sub1000_nc}) | {s_sub1000_nc} |
| Post to 10 weak observers (`Event.register`), per observer | {handler10} | `Mutex` snapshot of weak boxes: {weak10} | {r_handler10_weak} | {s_handler10_weak} |
| `Broadcaster.notify` to 10 observers, per observer | {notify10} | `Mutex` snapshot of weak boxes: {weak10} | {r_notify10_weak} | {s_notify10_weak} |
| EventRAII, 1,000 observers of one sender, per observer | {object1000} | Foundation's `object:` filter: {ncobject1000} | {r_object1000_nc} | {s_object1000_nc} |
| EventRAII, 1 observer of one sender | {object1} | Foundation's `object:` filter: {ncobject1} | {r_object1_nc} | {s_object1_nc} |
| Posts per second from 2 threads while a third subscribes and cancels | {posts_event} million | `NotificationCenter`: {posts_nc} million | {r_posts} ({x_posts}) | {s_posts} |
| Subscribe, then cancel, with 1,000 others | {churn} | `addObserver` + `removeObserver`: {churnnc} | {r_churn_nc} | {s_churn_nc} |

Heap allocations per synchronous post of EventTyped, EventBroadcast and EventConditions:
{post_alloc}. Registering and ending an observer with 1,000 others, against Foundation's add +
remove in the same run: {churn_phrase}. The docs' Performance article has the rest of the run,
and `Benchmarks/README.md` every case, instruction count and target.

![Time per observer of one post against the number of observers, log-log, for each Events
module beside NotificationCenter and Mutex snapshots](Docs/Events.docc/Resources/delivery.svg)"""

TEMPLATES["performance-results"] = """\
### Results

Measured in one run on the project's Linux machine ({machine}; {settings}), saved as
`Benchmarks/results.json`; times are medians. Beside each ratio is its range
across the samples of that run, in the Spread column (the fastest sample of one side against
the slowest of the other): a ratio that moves inside it from one run to the next is noise.
`Benchmarks/README.md` has the full table of the run (every observer count, min–max, every
baseline), its instruction counts, and what is left.

![Time per observer of one post against the number of observers, both axes logarithmic, for
each Events module beside NotificationCenter and Mutex snapshots. EventTyped's subscribe
closures cost {sub1_ns} at one observer and {sub1000_ns} per observer at 1,000. The weak-observer
forms, EventTyped's register and EventBroadcast's notify, cost {weak_low} to {weak_high} ns
per observer at 10. EventRAII's observers cost {raii1000_ns} per observer at 1,000, on top of
Foundation's one delivery. NotificationCenter costs {nc1_ns} at one observer and {nc1000_ns}
per observer at 1,000.](delivery.svg)

| Operation | Events | Baseline in the same run | Ratio | Spread |
|---|---|---|---|---|
| Post to 1 observer, synchronous | EventTyped `Event.post` to a `subscribe` closure: {sub1}, {sub1_alloc} | `NotificationCenter` block observer: {nc1}, {nc1_alloc} | {r_sub1_nc} ({x_sub1_nc}) | {s_sub1_nc} |
| Post to 1,000 observers, synchronous | `Event.post`: {sub1000} per observer, {sub1000_alloc} | `NotificationCenter`: {nc1000} per observer, {nc1000_alloc} | {r_sub1000_nc} ({x_sub1000_nc}) | {s_sub1000_nc} |
| Post to 1,000 observers, synchronous | `Event.post`: {sub1000} per observer | `Mutex` snapshot of closures: {mutex1000} | {r_sub1000_mutex} | {s_sub1000_mutex} |
| Post to 10 weak observers | `Event.register(_:handler:)`: {handler10} per observer, {handler10_alloc} | `Mutex` snapshot of weak boxes: {weak10} per observer | {r_handler10_weak} | {s_handler10_weak} |
| Broadcast a protocol call to 10 observers | EventBroadcast `Broadcaster.notify`: {notify10} per observer, {notify10_alloc} | `Mutex` snapshot of weak boxes: {weak10} per observer | {r_notify10_weak} | {s_notify10_weak} |
| Observe and post a notification, 1,000 observers | EventRAII `NotificationCenter.observe`: {raii1000} per observer, {raii1000_alloc} | `NotificationCenter.addObserver(forName:object:queue:using:)`: {nc1000} per observer, {nc1000_alloc} | {r_raii1000_nc} | {s_raii1000_nc} |
| Observe one sender's notifications, 1,000 observers | EventRAII `observe(_:object:delivery:_:)`: {object1000} per observer | `addObserver(forName:object:…)` with that sender: {ncobject1000} per observer | {r_object1000_nc} | {s_object1000_nc} |
| Observe one sender's notifications, 1 observer | EventRAII `observe(_:object:delivery:_:)`: {object1} | `addObserver(forName:object:…)`: {ncobject1} | {r_object1_nc} | {s_object1_nc} |
| 1,000 observers of 1,000 senders, one posts | EventRAII: {others} | `NotificationCenter`: {ncothers} | {r_others_nc} | {s_others_nc} |
| Count an arrival to a verified set | EventConditions `NotificationReceiver.check`: {check}, {check_alloc} | | | |
| Subscribe, then cancel, with 1,000 others | `Event.subscribe` and `Subscription.cancel()`: {churn}, {churn_alloc} | `addObserver` + `removeObserver`: {churnnc}, {churnnc_alloc} | {r_churn_nc} | {s_churn_nc} |
| Posts from 2 threads while a third subscribes and cancels | `Event.post`: {posts_event} million posts per second | `NotificationCenter`: {posts_nc} million posts per second | {r_posts} ({x_posts}) | {s_posts} |
| 1,000 work items on a global queue, each registering and notifying | `Broadcaster`: {progress} for all | `NotificationCenter`: {progressnc} | {r_progress_nc} | {s_progress_nc} |

![Register and end one observer with 1,000 others, and 1,000 work items on the global queue,
each registering and notifying all, for NotificationCenter and each Events module.](churn.svg)

Heap allocations per synchronous post of EventTyped, EventBroadcast and EventConditions:
{post_alloc}. `Broadcaster.notify` allocates one context per call, not per observer (see "Why a
notification allocates its body's context" below). The allocations of the EventRAII rows are
Foundation's own post's. The other exception is a method passed as a function value, below.

### Registering a method without an allocation per post

`register(_:handler:)` never allocates per post. `register(_:function:isolation:)` allocates
nothing per post when the method is written at the call site
(`register(self, function: Screen.show)`): the call is always inlined, so the compiler calls the
method directly. A method handed over as a function value, through code that does not know
which method it is, is bound to its observer on every delivery, and that allocates a closure
each time (the benchmark's `event.function.opaque`: {opaque_alloc} allocation per observer per
post). Swift has no way to call an unbound method reference held in a variable without making
that closure, so prefer the closure form wherever the method is not written at the call site.

### How the post path gets there

- Posts read the observer list in place, through an atomic pointer, and take no lock unless a
  registration or a cancellation holds the list at that moment, and then only until it is done.
  A change costs O(1), amortised, whatever posts are running: an insert writes the next free
  slot behind a release-ordered count, and a removal clears its slot when no post holds the
  list, or leaves that to the last post out. Nothing is rebuilt or copied per change, so a
  thread that registers never waits behind a stream of posts. Only a post to an event with a
  ``/EventTyped/Replay`` takes the lock, to record its payload. Under two threads posting flat
  out, a third thread subscribed and cancelled {churns_event} times a second ({churns_nc} with
  Foundation) while the posters made {posts_ratio} Foundation's posts; its longest single
  subscribe-and-cancel took {stall_event} (a plain `Mutex`: {stall_mutex}).
- A post calls each handler borrowed from its registration, with no retain or release per
  observer, so `event.subscribe` costs {subscribe_mutex_1000} the time per observer of a
  `Mutex`-guarded array of closures that the post copies, at 1,000 observers.
- EventRAII keeps the observers of each sender apart, so a post reaches its sender's observers
  without testing the others, and finds the sender once per post rather than converting the
  notification's object for each observer: 1,000 observers of one sender cost
  {r_object1000_nc} of Foundation's time.
- `Broadcaster.notify` hands each observer to your closure with one retain, and finds its
  protocol's observers without a lock: {notify_range} a `Mutex` snapshot of weak boxes, from 1
  to 1,000 observers.

### Targets

The benchmark checks the performance targets of the project's issues against the same run
({left_count}; `Benchmarks/README.md`, "What is left", gives each missed one its cause where it
is known):

{targets}"""

TEMPLATES["performance-registration"] = """\
### Registering and ending an observer

With 1,000 other observers registered, one registration and its end, before issue 34's changes
and in this run: instructions (callgrind, `Benchmarks/instructions.json`), allocations, and the
wall time beside Foundation's `addObserver` + `removeObserver` in the same run.

{registration_table}

The "before" figures are `Benchmarks/registration-before.json`'s; `Benchmarks/README.md` says
where each comes from, and what the post paths cost after the change."""

TEMPLATES["benchmarks-results"] = """\
{machine}; {settings}. {counter}.

Times are medians of the samples; ratios are this row's median over the baseline's in the same
run (below 1 = faster).

{results_table}

The targets of the issues, checked against this run; the last column is
`instructions.json`'s count of each limited ratio's two cases, from its own run of the same
binary:

{targets}"""

TEMPLATES["benchmarks-registration"] = """\
One registration and its end with 1,000 other observers (`churn.*/1000`), before issue 34 and
in this run; instructions from `instructions.json`, allocations and wall times from
`results.json`, each wall time beside Foundation's add + remove (`churn.nc/1000`) in the same
run. The "before" figures are `registration-before.json`'s: {registration_sources}.

{registration_table}

The post paths that issue 34 must leave as they were, in instructions per post against
`instructions-before-registration.json` (the counts of commit 86168fc, before the change);
within 5%: {registration_post_verdict}.

{registration_post_table}

The other figures issue 34 holds where they were: {registration_object}; {registration_check}. `Broadcaster.notify` allocates
{notify_allocations} per call at N = 0, 1, 10, 100 and 1,000: its body's context (see "What is
left")."""

TEMPLATES["benchmarks-additions"] = """\
From the run in `results.json`:

| Case | N=0 | N=1 | N=10 | N=100 | N=1000 | Allocs/op (most) |
|---|--:|--:|--:|--:|--:|--:|
{replay_row}

{once_table}"""

TEMPLATES["benchmarks-left"] = """\
{left_count}. Each one, with its figures from the run and, where it is known, where the cost
goes:

{left}"""

TEMPLATES["benchmarks-keyed"] = """\
From the run in `results.json` ({machine}; {settings}). Each sample runs the whole scenario
once: a task group of N tasks, each registering its wait and then sending its request, and a
responder that answers every request by id once all have been sent, the same for every
variant. Times are medians (per request in brackets), ratios with their range across samples;
allocations are per request, every thread's.

{reply_table}

Targets of issue 32: 10,000 requests in flight at most 2x the dictionary of continuations,
{reply10k}: {reply_10k_verdict}. Each doubling from 1k to 8k at most 2.3x the time (linear):
{reply_doublings}: {reply_linear_verdict}. `Event.next(where:)`, for contrast, runs every
waiter's predicate on every post: {reply_event_doublings} per doubling.

A post to one key with 10,000 other live keys, against a post to an `Event` with the same
observers; the target is at most 1.5x the `Event`'s instructions ({keyed_post_verdict}). Every
key has the N observers and successive posts go to successive keys, so the lookup is averaged
over the table; in time, each post also finds its key's list and entries cold in the cache,
where `event.subscribe` posts to one list again and again, so the time ratio says more about
the cache than about the lookup:

{keyed_post_table}"""

TEMPLATES["benchmarks-flow"] = """\
From the run in `results.json` ({machine}; {settings}). A `.queue(q)` post per observer, time
and allocations per observer, until the queue has run it: the unbounded path enqueues a block
per call; a bounded backlog queues in the registration's mailbox, drained in batches of 16, one
call per lock; with the consumer's queue suspended, each post into the full backlog drops the
oldest call, so memory stays at 64 calls per registration:

{flow_queue_table}

The synchronous post path, in callgrind instructions per post (`event.subscribe/N`), before
the flow changes (`Benchmarks/instructions-before-flow.json`) and after; the target is within
5% ({flow_post_verdict}), with no allocation (per post at N = 1, 10, 100, 1,000:
{flow_post_alloc}):

{flow_post_table}"""

TEMPLATES["performance-keyed"] = """\
### Request and reply

A server waiting for thousands of replies at once, each for its own request, measured in the
same run against a dictionary of `CheckedContinuation`s keyed by request id under a lock, the
code you would write by hand (no timeout). `KeyedEvent` waits with a timeout of 30 seconds, as
a server would; `Event.next(where:)`, which runs every waiter's predicate on every post, is
shown for contrast at the smaller counts. Allocations are per request.

{reply_table}

Each doubling of the requests in flight costs {reply_doublings} the time with `KeyedEvent`,
and {reply_event_doublings} with `Event.next(where:)`. A post to one key among 10,000 live keys
costs one lookup on top of an `Event` post to the same observers (posts go to successive keys,
each with the same observers, so the lookup is averaged over the table and each key's list is
cold in the cache, unlike the `Event`'s):

{keyed_post_table}

`Benchmarks/README.md` says how each of these is measured, and what the remaining difference
from the hand-written dictionary is made of."""


def reflow(text, width=96):
    """Wraps prose paragraphs and list items at `width`; tables and headings stay as they are."""
    paragraphs = []
    for paragraph in text.split("\n\n"):
        if paragraph.startswith(("|", "#")):
            paragraphs.append(paragraph)
            continue
        items = re.split(r"\n(?=- )", paragraph)
        wrapped = []
        for item in items:
            words = " ".join(item.split())
            indent = "  " if words.startswith("- ") else ""
            wrapped.append(textwrap.fill(words, width, subsequent_indent=indent,
                                         break_long_words=False, break_on_hyphens=False))
        paragraphs.append("\n".join(wrapped))
    return "\n\n".join(paragraphs)


def block(name, text):
    return (f"<!-- figures:begin {name} (generated from Benchmarks/*.json by "
            f"Benchmarks/figures.py: edit the script, not this text) -->\n{text}\n"
            f"<!-- figures:end {name} -->")


def render(page_text, names, values, page):
    for name in names:
        pattern = re.compile(
            r"<!-- figures:begin " + re.escape(name) + r" .*?-->\n.*?\n<!-- figures:end "
            + re.escape(name) + r" -->", re.S)
        if not pattern.search(page_text):
            sys.exit(f"error: {page} has no block {name}; add its two marker lines")
        page_text = pattern.sub(lambda _: block(name, reflow(TEMPLATES[name].format(**values))),
                                page_text, count=1)
    return page_text


def main(arguments):
    check = arguments == ["--check"]
    if arguments and not check:
        sys.exit(__doc__)
    values = figures(Run(RESULTS))
    stale = []
    for page, names in PAGES.items():
        path = os.path.join(ROOT, page)
        with open(path, encoding="utf-8") as file:
            current = file.read()
        expected = render(current, names, values, page)
        if expected == current:
            continue
        if check:
            stale.append(page)
            sys.stderr.writelines(difflib.unified_diff(
                current.splitlines(True), expected.splitlines(True), page, page + " (expected)"))
        else:
            with open(path, "w", encoding="utf-8") as file:
                file.write(expected)
            print(f"wrote {page}")
    if stale:
        sys.exit("error: the figures of " + " and ".join(stale) + " differ from "
                 "Benchmarks/results.json and instructions.json; run: python3 Benchmarks/figures.py")
    if check:
        print("The figures of " + ", ".join(PAGES) + " match Benchmarks/results.json and "
              "instructions.json.")


if __name__ == "__main__":
    main(sys.argv[1:])
