#!/usr/bin/env python3
"""Renders Docs/what-runs-where.json, what the test `whatRunsWhere`
(Tests/EventsDemoTests/WhatRunsWhere.swift, its cases in the WhatRunsWhere+*.swift files beside
it) saw each handler do, into the one reference article, Docs/Events.docc/WhatRunsWhere.md,
between its markers.

    python3 Docs/what-runs-where.py           # rewrites the article's generated part
    python3 Docs/what-runs-where.py --check   # fails if the article differs from the record

When a behaviour changes on purpose, rewrite the record first:

    EVENTS_WRITE_WHAT_RUNS_WHERE=1 swift test --filter WhatRunsWhere

The same --check also keeps README.md's list of guarantees equal to the headings of
Docs/Events.docc/DeliveryAndThreading.md, where each guarantee is stated with its proof, so that
no guarantee is written by hand in two places.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, "Docs", "what-runs-where.json")
ARTICLE = os.path.join(ROOT, "Docs", "Events.docc", "WhatRunsWhere.md")
GUARANTEES = os.path.join(ROOT, "Docs", "Events.docc", "DeliveryAndThreading.md")
README = os.path.join(ROOT, "README.md")

BEGIN = "<!-- what-runs-where: generated from Docs/what-runs-where.json; do not edit -->"
END = "<!-- what-runs-where: end -->"
README_BEGIN = "<!-- guarantees: generated from Docs/Events.docc/DeliveryAndThreading.md -->"
README_END = "<!-- guarantees: end -->"

MODULES = ["EventTyped", "EventBroadcast", "EventRAII", "EventConditions", "EventTesting"]
BACKGROUND = "a background thread"
MAIN = "the main actor"
OTHER = "another actor"
ACTOR_CALL = "the observing actor"
PLACES = [(BACKGROUND, "Called from a background thread"), (MAIN, "Called on the main actor"),
          (OTHER, "Called in another actor"), (ACTOR_CALL, "Called in the observing actor")]
NONISOLATED = "nonisolated code"
MAIN_CODE = "@MainActor code"
ACTOR = "an actor"
CALLER = "the caller's code"


def place(observed, called_from):
    """Where the handler ran and whether inside the call, in words."""
    if observed["calls"] == 0:
        return "Never ran"
    if observed["duringCall"]:
        where = {MAIN: "the main actor", OTHER: "the calling actor",
                 ACTOR_CALL: "the actor"}.get(called_from, "the calling thread")
        return f"Inline, on {where}"
    if observed["onActor"]:
        return "Queued on the actor"
    if observed["onMainActor"]:
        return "Queued on the main actor"
    if observed["onQueue"]:
        return "Queued on `q`"
    return "Queued off any actor"


def cell(record):
    if record is None:
        return "—"
    observed = record["observed"]
    text = place(observed, record["calledFrom"])
    if observed["calls"] > 1:
        text += f" ({observed['calls']} calls)"
    if not observed["duringCall"] and observed["calls"]:
        text += "; the call waits for it" if observed["callWaited"] else "; the call does not wait"
    return text


def rows(records):
    """One row per form: its first record, and its records by where the call was made."""
    forms = {}
    for record in records:
        forms.setdefault(record["id"], {})[record["calledFrom"]] = record
    for by_place in forms.values():
        yield next(iter(by_place.values())), by_place


def written(record):
    return {NONISOLATED: "Nonisolated", MAIN_CODE: "`@MainActor`", ACTOR: "An actor",
            CALLER: "The caller's"}.get(record["writtenIn"], record["writtenIn"])


def forms_where(records, predicate):
    names = []
    for record in records:
        label = f"{record['form']} ({record['writtenIn']}, from {record['calledFrom']})"
        if predicate(record) and label not in names:
            names.append(label)
    return names


def notes(records):
    """Statements that the record proves, each checked against every record it covers; a
    statement the record no longer supports is replaced by the list of its exceptions."""
    out = []

    def claim(text, covered, holds):
        exceptions = forms_where([r for r in records if covered(r)], lambda r: not holds(r))
        if exceptions:
            out.append(f"- Not true any more: {text} Exceptions: " + "; ".join(exceptions) + ".")
        else:
            out.append(f"- {text}")

    o = lambda r: r["observed"]
    background = {r["id"]: r for r in records if r["calledFrom"] == BACKGROUND}
    work = lambda r: r["id"].startswith("receiver.verified.work.")
    dropping = lambda r: ".drops." in r["id"] or ".onDrop." in r["id"]
    # Forms that take a plain `@Sendable` closure, which takes no isolation from its code.
    plain = lambda r: "onObservedChange" in r["form"] or "onDrop" in r["form"]
    sync_nonisolated = lambda r: (r["writtenIn"] == NONISOLATED and r["delivery"] == "`.synchronous`"
                                  and "async" not in r["form"] and "await" not in r["form"]
                                  and "detached" not in r["form"] and "@MainActor" not in r["trigger"]
                                  and "async" not in r["trigger"] and "await" not in r["trigger"]
                                  and r["module"] != "EventTesting")
    claim("A handler written in nonisolated code with the default `.synchronous` delivery runs "
          "inline, on the thread that makes the call, before the call returns, wherever that "
          "thread is (the main actor included).",
          sync_nonisolated, lambda r: o(r)["duringCall"])
    claim("A handler written in `@MainActor` code runs on the main actor whatever the delivery "
          "says: isolation wins over delivery.",
          lambda r: r["writtenIn"] == MAIN_CODE and not plain(r), lambda r: o(r)["onMainActor"])
    claim("The exceptions: `onObservedChange` and `onDrop` take a plain `@Sendable` closure, which "
          "takes no isolation from the code it is written in: written in `@MainActor` code, it "
          "still runs inline, on the thread of the call that makes the change or the drop.",
          lambda r: r["writtenIn"] == MAIN_CODE and plain(r),
          lambda r: o(r)["duringCall"] and o(r)["onMainActor"] == (r["calledFrom"] == MAIN))
    claim("Inline on the main actor happens only when the call is made on the main actor: from a "
          "background thread, every main-actor handler is queued, and the call does not wait "
          "for it.",
          lambda r: r["calledFrom"] == BACKGROUND and o(r)["onMainActor"],
          lambda r: not o(r)["duringCall"] and not o(r)["callWaited"])
    claim("An actor observer is queued on its actor, even when the call is made in that actor's "
          "own code, except a `Broadcaster` observer registered from the actor's own code: a "
          "`notify` made there calls it inline (`notify` takes the caller's isolation; `post` "
          "does not).",
          lambda r: o(r)["onActor"] and not work(r),
          lambda r: not o(r)["duringCall"] or (r["module"] == "EventBroadcast"
                                               and r["calledFrom"] == ACTOR_CALL))
    claim("An async handler is always queued, never run inline, even one written in `@MainActor` "
          "code for a call made on the main actor; so is the code after an `await` of `next`, of "
          "`values` or of `verified`.",
          lambda r: ("async" in r["form"] or "await" in r["form"]) and not work(r),
          lambda r: not o(r)["duringCall"])
    claim("With `.mainActor` delivery, a handler written in nonisolated code runs inline when the "
          "call is made on the main actor, and is queued there otherwise.",
          lambda r: r["delivery"] == "`.mainActor`" and r["writtenIn"] == NONISOLATED,
          lambda r: o(r)["onMainActor"] and o(r)["duringCall"] == (r["calledFrom"] == MAIN))
    claim("No call waits for a handler that it queues, except `send`, which returns once the "
          "calls it queued have run.",
          lambda r: not o(r)["duringCall"] and o(r)["calls"] > 0,
          lambda r: o(r)["callWaited"] == ("send" in r["trigger"]))
    claim("`.queue(q)` runs the handler on `q` (written in nonisolated code).",
          lambda r: r["delivery"].startswith("`.queue(q)`") and r["writtenIn"] == NONISOLATED,
          lambda r: o(r)["onQueue"])
    claim("A call made in an actor that is neither the main actor nor the handler's reaches "
          "every handler as a call from a background thread does: the same handlers run inline, "
          "inside the call, and the others are queued in the same place.",
          lambda r: r["calledFrom"] == OTHER and r["id"] in background,
          lambda r: o(r) == o(background[r["id"]]))
    claim("A conditioner's handler written in nonisolated code (`onVerified`, `onIgnored`, "
          "`onArrival`) runs inline in the call that caused it (`check`, `ignore`, `arrive`, a "
          "counted notification), before that call returns.",
          lambda r: (r["module"] == "EventConditions" and r["writtenIn"] == NONISOLATED
                     and r["delivery"] == "—" and "await" not in r["form"]),
          lambda r: o(r)["duringCall"])
    claim("The closure of `verified(after:)` and of `verified(timeout:after:)`, `async` or not, "
          "runs once, inline, in the call, on the caller's actor.",
          work, lambda r: (o(r)["duringCall"] and o(r)["calls"] == 1
                           and o(r)["onMainActor"] == (r["calledFrom"] == MAIN)
                           and o(r)["onActor"] == (r["calledFrom"] == OTHER)))
    claim("A drop is reported where it is made: the first drop of a burst by the call that "
          "drops, which runs the report's nonisolated handlers inline, on its thread, before it "
          "returns (a `drops` handler written in `@MainActor` code runs on the main actor, "
          "queued unless the call is made there); the later drops of the burst, added up into "
          "one report, on the dropping registration's queue, before its next call.",
          dropping,
          lambda r: (o(r)["onQueue"] and not o(r)["duringCall"]) if ".later" in r["id"] else (
              o(r)["duringCall"] if r["writtenIn"] == NONISOLATED or plain(r) else
              o(r)["onMainActor"] and o(r)["duringCall"] == (r["calledFrom"] == MAIN)))
    claim("`EventTesting`'s recorders record on the posting thread: what was posted is in the "
          "recorder when `post` returns.",
          lambda r: r["module"] == "EventTesting", lambda r: o(r)["duringCall"])
    return out


def render(records):
    lines = [BEGIN, ""]
    for module in MODULES:
        module_records = [r for r in records if r["module"] == module]
        if not module_records:
            continue
        places = [(key, title) for key, title in PLACES
                  if any(r["calledFrom"] == key for r in module_records)]
        lines += [f"### {module}", "",
                  "| Form | Written in | Delivery | Made by | "
                  + " | ".join(title for _, title in places) + " |",
                  "|---|---|---|---|" + "---|" * len(places)]
        for first, by_place in rows(module_records):
            lines.append(f"| {first['form']} | {written(first)} | {first['delivery']} | "
                         f"{first['trigger']} | "
                         + " | ".join(cell(by_place.get(key)) for key, _ in places) + " |")
        lines.append("")
    lines += ["### What the record shows", ""] + notes(records) + ["", END]
    return "\n".join(lines)


def replace_between(text, begin, end, body, path):
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        sys.exit(f"error: {path} lacks the markers {begin!r} and {end!r}")
    return text[:start] + body + text[stop + len(end):]


def readme_list():
    """README's list: each `### N. Title` of DeliveryAndThreading.md, in order."""
    text = open(GUARANTEES, encoding="utf-8").read()
    items = re.findall(r"^### (\d+)\. (.+)$", text, re.M)
    if [int(number) for number, _ in items] != list(range(1, len(items) + 1)):
        sys.exit(f"error: {GUARANTEES} numbers its guarantees out of order")
    return "\n".join([README_BEGIN] + [f"{n}. {title}" for n, title in items] + [README_END])


def main():
    check = "--check" in sys.argv[1:]
    records = json.load(open(RECORD, encoding="utf-8"))
    article = open(ARTICLE, encoding="utf-8").read()
    new_article = replace_between(article, BEGIN, END, render(records), ARTICLE)
    readme = open(README, encoding="utf-8").read()
    new_readme = replace_between(readme, README_BEGIN, README_END, readme_list(), README)
    stale = [path for path, old, new in [(ARTICLE, article, new_article),
                                          (README, readme, new_readme)] if old != new]
    if check:
        if stale:
            sys.exit("error: " + " and ".join(os.path.relpath(p, ROOT) for p in stale)
                     + (" differs" if len(stale) == 1 else " differ")
                     + " from what Docs/what-runs-where.json and DeliveryAndThreading.md say;"
                     " run python3 Docs/what-runs-where.py")
        print("WhatRunsWhere.md matches Docs/what-runs-where.json; README's guarantees match "
              "DeliveryAndThreading.md.")
        return
    open(ARTICLE, "w", encoding="utf-8").write(new_article)
    open(README, "w", encoding="utf-8").write(new_readme)


if __name__ == "__main__":
    main()
