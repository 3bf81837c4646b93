#!/usr/bin/env python3
"""Write a JSON array of GitHub-like issue records (`tof` on a large array).

    python3 tool-output-format-cli/benches/big_array.py /tmp/big.json            # ~110 MB, one line
    python3 tool-output-format-cli/benches/big_array.py /tmp/big.json 1000000    # ~1 MB

The record is shaped like an issue of a GitHub list response (taken from the project's
corpus, `issues_30.json`); ids, titles, bodies, users, labels and dates vary, the output is the
same on every run. The array is written compactly on one line; pretty-print it with
`python3 -m json.tool big.json > big_pretty.json`.
"""
import json
import random
import sys

WORDS = ("query agent error model batch window schema safe index column record token field "
         "timeout retry context budget fast cursor parse cache tool").split()
USERS = ["li-lei", "ada", "grace-h", "linus", "margaret", "ken-t", "barbara", "dennis"]
LABELS = [
    {"id": 100, "name": "bug", "color": "d73a4a", "default": True},
    {"id": 101, "name": "enhancement", "color": "a2eeef", "default": True},
    {"id": 102, "name": "documentation", "color": "0075ca", "default": True},
    {"id": 103, "name": "good first issue", "color": "7057ff", "default": False},
    {"id": 104, "name": "performance", "color": "fbca04", "default": False},
]
API = "https://api.example.com"


def user(rng):
    login = rng.choice(USERS)
    uid = 500000 + USERS.index(login)
    u = f"{API}/users/{login}"
    return {
        "login": login, "id": uid, "node_id": f"MDQ6VXNlcj{uid:08d}",
        "avatar_url": f"https://avatars.example.com/u/{uid}?v=4", "gravatar_id": "",
        "url": u, "html_url": f"https://example.com/{login}",
        "followers_url": f"{u}/followers", "following_url": f"{u}/following{{/other_user}}",
        "gists_url": f"{u}/gists{{/gist_id}}", "starred_url": f"{u}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{u}/subscriptions", "organizations_url": f"{u}/orgs",
        "repos_url": f"{u}/repos", "events_url": f"{u}/events{{/privacy}}",
        "received_events_url": f"{u}/received_events", "type": "User", "site_admin": False,
    }


def issue(rng, n):
    words = lambda k: " ".join(rng.choice(WORDS) for _ in range(k))
    base = f"{API}/repos/acme/widgets/issues/{n}"
    closed = rng.random() < 0.4
    return {
        "url": base, "repository_url": f"{API}/repos/acme/widgets",
        "labels_url": f"{base}/labels{{/name}}", "comments_url": f"{base}/comments",
        "events_url": f"{base}/events", "html_url": f"https://example.com/acme/widgets/issues/{n}",
        "id": 90000000 + n, "node_id": f"I_kwDOAbc{n:06d}", "number": n,
        "title": words(8).capitalize(), "user": user(rng),
        "labels": rng.sample(LABELS, rng.randint(0, 3)),
        "state": "closed" if closed else "open", "locked": False, "assignee": None,
        "assignees": [], "milestone": None, "comments": rng.randint(0, 40),
        "created_at": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T13:05:00Z",
        "updated_at": "2026-11-13T10:00:00Z",
        "closed_at": "2026-11-14T09:00:00Z" if closed else None,
        "author_association": rng.choice(["NONE", "MEMBER", "CONTRIBUTOR"]),
        "body": f"## Description\n\n{words(20).capitalize()}.\n\n```rust\nlet md = fmt.format(\"t\", "
                f"&rows); // a | b\n```\n\n### Steps\n1. run `cargo test`\n2. {words(6)}",
        "reactions": {"total_count": rng.randint(0, 9), "+1": rng.randint(0, 5), "-1": 0, "heart": 0},
        "score": 1.0,
    }


def main():
    path = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 110_000_000
    rng = random.Random(32)
    written, n = 0, 0
    with open(path, "w") as f:
        f.write("[")
        while written < size:
            text = json.dumps(issue(rng, n + 1), separators=(",", ":"))
            f.write(("," if n else "") + text)
            written += len(text) + 1
            n += 1
        f.write("]\n")
    print(f"{path}: {n} records, {written} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
