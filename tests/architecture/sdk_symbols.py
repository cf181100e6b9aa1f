#!/usr/bin/env python3
"""Every shipped plugin links the SDK library alone (docs/architecture.md "Two libraries").

    sdk_symbols.py LIB_DIR

For each plugin under LIB_DIR/tessera/plugins: it does not need libtessera_host, and every
symbol it leaves undefined (weak ones aside) is defined by libtessera_sdk or by the system
libraries it names itself (the C and C++ runtimes). A symbol found only in libtessera_host is
named as such: the plugin reached past the SDK. Exit 1 when any plugin fails, 2 when LIB_DIR
holds no SDK library or no plugin.
"""
import os
import subprocess
import sys


def dynamic_symbols(path, undefined):
    flag = "--undefined-only" if undefined else "--defined-only"
    out = subprocess.run(["nm", "-D", flag, path], check=True, capture_output=True, text=True).stdout
    symbols = set()
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        kind, name = parts[-2], parts[-1]
        if undefined and kind in ("w", "v"):
            continue  # weak: resolved if present, allowed to stay undefined
        symbols.add(name.split("@")[0])
    return symbols


def needed_paths(path):
    """{soname: resolved path} of the libraries `path` names (ldd)."""
    out = subprocess.run(["ldd", path], check=True, capture_output=True, text=True).stdout
    libs = {}
    for line in out.splitlines():
        parts = line.split()
        if "=>" in parts and len(parts) >= 3 and parts[2].startswith("/"):
            libs[parts[0]] = parts[2]
    return libs


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    lib_dir = argv[1]
    sdk = os.path.join(lib_dir, "libtessera_sdk.so")
    host = os.path.join(lib_dir, "libtessera_host.so")
    plugin_dir = os.path.join(lib_dir, "tessera", "plugins")
    plugins = sorted(f for f in os.listdir(plugin_dir) if f.endswith(".so")) if os.path.isdir(plugin_dir) else []
    if not os.path.exists(sdk) or not plugins:
        print(f"sdk_symbols: no libtessera_sdk.so or no plugin under {lib_dir}")
        return 2
    sdk_defined = dynamic_symbols(sdk, undefined=False)
    host_defined = dynamic_symbols(host, undefined=False) if os.path.exists(host) else set()
    system_cache = {}
    failures = 0
    for name in plugins:
        path = os.path.join(plugin_dir, name)
        libs = needed_paths(path)
        errors = []
        if any(s.startswith("libtessera_host") for s in libs):
            errors.append("needs libtessera_host (a plugin links the SDK library only)")
        defined = set(sdk_defined)
        for soname, lib in libs.items():
            if soname.startswith("libtessera"):
                continue
            if lib not in system_cache:
                system_cache[lib] = dynamic_symbols(lib, undefined=False)
            defined |= system_cache[lib]
        for sym in sorted(dynamic_symbols(path, undefined=True) - defined):
            where = "defined in libtessera_host only" if sym in host_defined else "defined nowhere it links"
            errors.append(f"{sym}: {where}")
        for e in errors:
            print(f"{path}: error: {e}")
        failures += bool(errors)
    print(f"sdk_symbols: {len(plugins)} plugins, {failures} reaching past the SDK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
