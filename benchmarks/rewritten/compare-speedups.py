"""The table of issue 17's last line: for each suite app, online mode's
end-to-end speedup built by nvcc from divopt rewrite's output against the
same app built with the plugin, each over its own baseline (divopt off), from
two `divopt bench` results.json files, with both runs' provenance. An app
meets the bar when the rewritten build's speedup is at least 90% of the
plugin build's and every variant kept its baseline's checksum.

usage: compare-speedups.py PLUGIN_RESULTS.json REWRITTEN_RESULTS.json > table.md
"""
import json
import sys

BAR = 0.90


def online_speedups(path):
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    speedups = {}
    for app in results["apps"]:
        variants = {v["name"]: v for v in app["variants"]}
        base, online = variants.get("baseline"), variants.get("online")
        if not base or not online or online.get("status") != "ok" or \
                not online.get("end_to_end_ms") or not base.get("end_to_end_ms"):
            speedups[app["app"]] = (None, "online did not run: " +
                                    (online or {}).get("note", "no online variant"))
            continue
        same = online.get("checksum") == base.get("checksum")
        speedups[app["app"]] = (base["end_to_end_ms"] / online["end_to_end_ms"],
                                "" if same else "checksum differs from its baseline")
    return results["provenance"], speedups


def provenance_row(name, p):
    return (f"| {name} | {p['device']} | {p['driver']} | {p['sm_clock']} | {p['commit']} | "
            f"{p['date']} | `{p['command']}` |")


def main():
    plugin_prov, plugin = online_speedups(sys.argv[1])
    nvcc_prov, nvcc = online_speedups(sys.argv[2])
    print("# Online mode: nvcc from divopt rewrite's output against the plugin\n")
    print("| build | device | driver | SM clock | commit | date | command |")
    print("|---|---|---|---|---|---|---|")
    print(provenance_row("plugin (clang++ 22)", plugin_prov))
    print(provenance_row("nvcc, divopt rewrite", nvcc_prov))
    print("\nEnd-to-end speedup of online mode over the same build with divopt off; the bar: "
          f"rewritten >= {BAR:.0%} of plugin.\n")
    print("| app | plugin | rewritten (nvcc) | rewritten / plugin | meets the bar |")
    print("|---|--:|--:|--:|---|")
    met = 0
    apps = sorted(set(plugin) | set(nvcc))
    for app in apps:
        p, p_note = plugin.get(app, (None, "not run"))
        n, n_note = nvcc.get(app, (None, "not run"))
        if p is None or n is None or p_note or n_note:
            why = "; ".join(x for x in (p_note and f"plugin: {p_note}",
                                         n_note and f"rewritten: {n_note}") if x)
            print(f"| {app} | {p if p is None else f'{p:.2f}x'} | "
                  f"{n if n is None else f'{n:.2f}x'} | | no: {why} |")
            continue
        ok = n >= BAR * p
        met += ok
        print(f"| {app} | {p:.2f}x | {n:.2f}x | {n / p:.0%} | {'yes' if ok else 'no'} |")
    print(f"\n{met} of {len(apps)} apps meet the bar.")
    return 0 if met == len(apps) else 1


if __name__ == "__main__":
    sys.exit(main())
