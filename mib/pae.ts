/**
 * IEEE8021-PAE-MIB (ieee8021paeMIB 1.0.8802.1.1.1): 802.1X port access control, what the
 * SNMP drivers read to know a port whose access 802.1X decides and what the lab serves.
 * Source: IEEE 802.1X-2004 Annex D (OIDs, enums and INDEX clauses as defined there).
 */

/** dot1xPaeSystemAuthControl values */
export const paeSystemAuthControl = { enabled: 1, disabled: 2 } as const;

/** dot1xAuthAuthControlledPortControl values (the port's configured mode) */
export const paePortControl = { forceUnauthorized: 1, auto: 2, forceAuthorized: 3 } as const;

export const pae = {
  // scalar (append ".0"): port access control on the whole system
  dot1xPaeSystemAuthControl: "1.0.8802.1.1.1.1.1.1",
  // dot1xAuthConfigTable, index dot1xPaePortNumber (the port's ifIndex on the agents seen)
  dot1xAuthPaeState: "1.0.8802.1.1.1.1.2.1.1.1", // 1 initialize .. 5 authenticated .. 8 forceAuth, 9 forceUnauth
  dot1xAuthAuthControlledPortStatus: "1.0.8802.1.1.1.1.2.1.1.5", // 1 authorized, 2 unauthorized
  dot1xAuthAuthControlledPortControl: "1.0.8802.1.1.1.1.2.1.1.6", // paePortControl
} as const;
