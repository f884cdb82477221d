#!/usr/bin/python3
"""
PyEZ (Juniper's own Python client, jnpr.junos over ncclient) against a NETCONF face, for
test/devices/netconf-pyez.test.ts: opens the device, reads its facts (fetched lazily) and
Junos RPCs, loads `set` statements with Config (lock, load, commit check, commit, unlock)
and prints what it saw as JSON.

argv[1]: JSON {host, port, user, password, set: [lines], bad: [lines]}. `bad` is loaded
after the change and must fail (the face's rpc-error reaches PyEZ as ConfigLoadError).
The host key is not checked: PyEZ's Device passes hostkey_verify=False to ncclient by
default; the driver under test is what pins keys.
"""
import json
import sys

from jnpr.junos import Device
from jnpr.junos.exception import ConfigLoadError, RpcError
from jnpr.junos.utils.config import Config


def main():
    args = json.loads(sys.argv[1])
    out = {}
    dev = Device(
        host=args["host"],
        port=args["port"],
        user=args["user"],
        passwd=args["password"],
        gather_facts=False,
        # no keys of this machine's user: the face takes the password
        ssh_private_key_file=None,
    )
    dev.open()
    try:
        # PyEZ's facts are fetched when first read (new-style facts): show version, RE, switch style
        out["facts"] = {
            "hostname": dev.facts["hostname"],
            "model": dev.facts["model"],
            "version": dev.facts["version"],
            "switch_style": dev.facts["switch_style"],
        }
        software = dev.rpc.get_software_information()
        out["hostname"] = software.findtext(".//host-name").strip()
        terse = dev.rpc.get_interface_information(terse=True)
        out["interfaces"] = [e.text.strip() for e in terse.findall(".//physical-interface/name")]
        one = dev.rpc.get_interface_information(interface_name=args["port_name"])
        out["description_before"] = (one.findtext(".//physical-interface/description") or "").strip()
        vlans = dev.rpc.get_vlan_information(extensive=True)
        out["vlans"] = [e.text.strip() for e in vlans.findall(".//l2ng-l2rtb-vlan-name")]
        out["framing"] = "chunked" if "urn:ietf:params:netconf:base:1.1" in dev._conn.server_capabilities else "eom"

        cu = Config(dev)
        cu.lock()
        cu.load("\n".join(args["set"]), format="set")
        out["commit_check"] = bool(cu.commit_check())
        out["commit"] = bool(cu.commit(comment="pyez"))
        cu.unlock()

        cu.lock()
        try:
            cu.load("\n".join(args["bad"]), format="set")
            out["bad_load"] = "accepted"
        except ConfigLoadError as e:
            out["bad_load"] = "ConfigLoadError: " + str(e.rpc_error.get("message") or e)
        finally:
            cu.rollback(0)
            cu.unlock()

        try:
            dev.rpc.get_no_such_information()
            out["unknown_rpc"] = "answered"
        except RpcError as e:
            out["unknown_rpc"] = "RpcError: " + str(e)
    finally:
        dev.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
