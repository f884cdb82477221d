// The Node.js options the service runs with, in every way it is started: `npm start`
// (package.json), the container (deploy/Dockerfile), the systemd unit
// (deploy/switchdesk.service) and the benchmark's service processes (bench/instances.ts).
// test/unit/service-node-options.test.ts holds them all to this list.
//
// --max-semi-space-size=64: V8's young generation, where every request's short-lived
// objects are made (decoded SNMP answers, rows, the JSON answer), grows to 64 MB per half
// instead of 16. A busy service makes about 1 MB of such objects per call; with 16 MB a
// collection came every ~80 ms, while calls in flight still held much of what they had
// made, so each one copied several MB of objects still alive (10 ms each). In the bench's
// one-instance load row (30 s, 64 clients): 385 to 439 young collections and 3.9 to 4.7 s
// of pauses with the default, 119 to 137 and 1.9 to 2.1 s with 64 MB; service CPU per
// call 4.4, 4.7, 4.4, 4.0 ms against 5.6, 5.3, 4.7, 5.2 ms in four alternated pairs; peak
// RSS 355 to 382 MB against 264 to 275 MB (docs/performance.md, "The young generation").
const SERVICE_NODE_OPTIONS = ["--max-semi-space-size=64"];

module.exports = { SERVICE_NODE_OPTIONS };
