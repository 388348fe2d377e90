"""Rewrites the merged site's front page so that it leads with the start-here page.

    python3 Docs/front-page.py SITE

`docc merge` synthesizes the front page (`data/documentation.json`) as one untitled list of the
modules in alphabetical order, so the umbrella's "start here" page comes last, after the
modules a newcomer cannot yet choose between; the sidebar (`index/index.json`) lists them in
the order they were merged. Neither has an option for order or words, so this script rewrites
both: first the start-here page and its two essentials, then the modules by the job each does,
with the shared core last.
"""

import json
import os
import sys

site = sys.argv[1]
START_HERE = "doc://org.events.Events/documentation/Events"
ESSENTIALS = [START_HERE + "/GettingStarted", START_HERE + "/ChoosingAModule"]
# The modules in the order of the umbrella's "Pick a module" table: by job, the core last.
MODULES = ["EventRAII", "EventBroadcast", "EventTyped", "EventConditions", "EventTesting",
           "EventCore"]


def module_identifier(module):
    return f"doc://org.events.{module}/documentation/{module}"


def load(path):
    with open(os.path.join(site, path), encoding="utf-8") as file:
        return json.load(file)


def save(path, value):
    with open(os.path.join(site, path), "w", encoding="utf-8") as file:
        json.dump(value, file, ensure_ascii=False, separators=(",", ":"))


front = load("data/documentation.json")
umbrella = load("data/documentation/events.json")
references = front["references"]
listed = {i for section in front["topicSections"] for i in section["identifiers"]}
expected = {START_HERE} | {module_identifier(m) for m in MODULES}
if listed != expected:
    sys.exit(f"error: the merged front page lists {sorted(listed)}, expected {sorted(expected)};"
             " update Docs/front-page.py")
for essential in ESSENTIALS:
    # The articles' references come from the umbrella's own page, which curates them.
    references[essential] = umbrella["references"][essential]

front["abstract"] = [{
    "type": "text",
    "text": "In-process events for Swift 6: observers that end themselves, typed payloads, "
            "and the same threading guarantees in every module. Start with the Events page, "
            "then import the one module that does your job.",
}]
front["topicSections"] = [
    {"title": "Start here", "identifiers": [START_HERE] + ESSENTIALS},
    {"title": "Pick a module", "identifiers": [module_identifier(m) for m in MODULES]},
]
save("data/documentation.json", front)

index = load("index/index.json")
for root in index["interfaceLanguages"].values():
    for node in root:
        by_path = {child["path"]: child for child in node["children"]}
        order = ["/documentation/events"] + [f"/documentation/{m.lower()}" for m in MODULES]
        if set(by_path) != set(order):
            sys.exit(f"error: the sidebar lists {sorted(by_path)}; update Docs/front-page.py")
        node["children"] = [by_path[path] for path in order]
save("index/index.json", index)
