/**
 * What an API driver's call cost the device: requests sent (HTTP requests, NETCONF RPCs)
 * and round trips, the waits on the call's critical path: a request sent while none is
 * in flight starts a new round trip, one sent beside others shares theirs. The service
 * reads them after each call (`driver.counters`, as the SNMP session counts its own) for
 * the request log and the metrics.
 */
export class RequestCounters {
  requests = 0;
  roundTrips = 0;
  private inFlight = 0;

  /** a request is sent; call the returned function once when it is answered or given up */
  begin(): () => void {
    this.requests++;
    if (this.inFlight === 0) this.roundTrips++;
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
    };
  }
}
