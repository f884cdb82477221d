"""Drives the lab's eAPI face with Arista's own Python client, pyeapi (test/devices/eapi-pyeapi.test.ts).

Connection from the environment: EAPI_HOST, EAPI_PORT, EAPI_USERNAME, EAPI_PASSWORD. pyeapi
turns certificate checks off for its https transport unless told to enforce them, as a
self-signed switch needs. Reads show version, show vlan and show interfaces status
(JSON), makes one committed change through its resource modules (a VLAN created and
named, a description set: `configure terminal` requests), reads them back through the
same modules (which parse `show running-config all` text), runs one invalid command, and
prints what it saw as one JSON object.
"""
import json
import os
import sys

import pyeapi
from pyeapi.eapilib import CommandError, ConnectionError as EapiConnectionError


def main() -> int:
    host = os.environ["EAPI_HOST"]
    port = int(os.environ["EAPI_PORT"])
    username = os.environ["EAPI_USERNAME"]
    password = os.environ["EAPI_PASSWORD"]
    vlan = int(os.environ.get("EAPI_VLAN", "3210"))
    port_name = os.environ.get("EAPI_INTERFACE", "Ethernet3")
    out = {"pyeapi": getattr(pyeapi, "__version__", "")}

    node = pyeapi.connect(
        transport="https", host=host, port=port, username=username, password=password, timeout=10, return_node=True
    )
    version, vlans, status = node.enable(["show version", "show vlan", "show interfaces status"])
    out["version"] = {"modelName": version["result"]["modelName"], "version": version["result"]["version"]}
    out["node_model"] = node.model
    out["vlan_ids"] = sorted(int(v) for v in vlans["result"]["vlans"])
    out["status_ports"] = len(status["result"]["interfaceStatuses"])

    vlans_api = node.api("vlans")
    out["created"] = vlans_api.create(vlan)
    out["named"] = vlans_api.set_name(vlan, "from-pyeapi")
    out["described"] = node.api("interfaces").set_description(port_name, value="set by pyeapi")
    out["vlan_after"] = vlans_api.get(vlan)
    out["description_after"] = node.api("interfaces").get(port_name)["description"]

    try:
        node.enable(["show no-such-thing"])
        out["invalid"] = None
    except CommandError as e:
        out["invalid"] = {"code": e.error_code, "text": e.error_text, "message": str(e)}

    bad = pyeapi.connect(transport="https", host=host, port=port, username=username, password="wrong", timeout=10)
    try:
        bad.execute(["show version"])
        out["bad_login"] = None
    except EapiConnectionError as e:
        out["bad_login"] = str(e)

    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
