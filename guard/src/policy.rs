//! Which addresses a page may reach: every IPv4 and IPv6 address is judged
//! against the IANA special-purpose registries, multicast, the forms of IPv6
//! that carry an IPv4 address, and this machine's own interfaces.
//!
//! The rule is "public unicast only". IPv4: deny every special-purpose block
//! (even the few IANA marks globally reachable, such as AS112: none serves web
//! pages, and one uniform rule is easier to test). IPv6: allow only global
//! unicast `2000::/3`, minus the special blocks inside it. An IPv4-mapped
//! address (`::ffff:a.b.c.d`) is judged as the IPv4 address it is; every other
//! form that embeds IPv4 (compatible, translated, NAT64, 6to4, Teredo) is
//! denied, with the address it carries named in the reason.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::{IpNet, Ipv4Net, Ipv6Net};

/// IPv4 blocks refused, with what they are (RFC in brackets). Checked in
/// order; the first that contains the address names the reason.
const V4_DENY: &[(&str, &str)] = &[
    ("0.0.0.0/8", "\"this network\" [RFC 791]"),
    ("10.0.0.0/8", "private-use [RFC 1918]"),
    ("100.64.0.0/10", "shared address space / CGNAT [RFC 6598]"),
    ("127.0.0.0/8", "loopback [RFC 1122]"),
    ("169.254.0.0/16", "link-local, cloud metadata [RFC 3927]"),
    ("172.16.0.0/12", "private-use [RFC 1918]"),
    ("192.0.0.0/24", "IETF protocol assignments [RFC 6890]"),
    ("192.0.2.0/24", "documentation TEST-NET-1 [RFC 5737]"),
    ("192.31.196.0/24", "AS112-v4 [RFC 7535]"),
    ("192.52.193.0/24", "AMT [RFC 7450]"),
    ("192.88.99.0/24", "deprecated 6to4 relay anycast [RFC 7526]"),
    ("192.168.0.0/16", "private-use [RFC 1918]"),
    ("192.175.48.0/24", "AS112 direct delegation [RFC 7534]"),
    ("198.18.0.0/15", "benchmarking [RFC 2544]"),
    ("198.51.100.0/24", "documentation TEST-NET-2 [RFC 5737]"),
    ("203.0.113.0/24", "documentation TEST-NET-3 [RFC 5737]"),
    ("224.0.0.0/4", "multicast [RFC 5771]"),
    ("255.255.255.255/32", "limited broadcast [RFC 919]"),
    ("240.0.0.0/4", "reserved [RFC 1112]"),
];

/// IPv6 blocks refused, most specific first.
const V6_DENY: &[(&str, &str)] = &[
    ("::/128", "unspecified [RFC 4291]"),
    ("::1/128", "loopback [RFC 4291]"),
    ("::ffff:0:0:0/96", "IPv4-translated [RFC 2765]"),
    ("::/96", "IPv4-compatible, deprecated [RFC 4291]"),
    ("64:ff9b::/96", "NAT64 well-known prefix [RFC 6052]"),
    (
        "64:ff9b:1::/48",
        "local-use IPv4/IPv6 translation [RFC 8215]",
    ),
    ("100::/64", "discard-only [RFC 6666]"),
    ("100:0:0:1::/64", "dummy prefix [RFC 9780]"),
    ("2001::/32", "Teredo [RFC 4380]"),
    ("2001::/23", "IETF protocol assignments [RFC 2928]"),
    ("2001:db8::/32", "documentation [RFC 3849]"),
    ("2002::/16", "6to4 [RFC 3056]"),
    ("2620:4f:8000::/48", "AS112 direct delegation [RFC 7534]"),
    ("3fff::/20", "documentation [RFC 9637]"),
    ("5f00::/16", "SRv6 SIDs [RFC 9602]"),
    ("fc00::/7", "unique-local [RFC 4193]"),
    ("fec0::/10", "site-local, deprecated [RFC 3879]"),
    ("fe80::/10", "link-local [RFC 4291]"),
    ("ff00::/8", "multicast [RFC 4291]"),
];

/// Everything public in IPv6 lies here.
const V6_GLOBAL_UNICAST: &str = "2000::/3";

/// Why an address is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressRefusal {
    /// The address judged.
    pub address: IpAddr,
    /// The block that contains it.
    pub range: IpNet,
    /// What the block is.
    pub name: &'static str,
    /// The IPv4 address an IPv6 form carries (6to4, Teredo, NAT64 …).
    pub carries: Option<Ipv4Addr>,
}

impl fmt::Display for AddressRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is {} ({})", self.address, self.name, self.range)?;
        if let Some(inner) = self.carries {
            write!(f, " carrying {inner}")?;
        }
        Ok(())
    }
}

/// The verdict on one address, before the allow-list and interface checks.
pub fn classify(address: IpAddr) -> Result<(), AddressRefusal> {
    match address.to_canonical() {
        IpAddr::V4(v4) => classify_v4(v4).map_err(|(range, name)| AddressRefusal {
            address,
            range,
            name,
            carries: None,
        }),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(address: Ipv4Addr) -> Result<(), (IpNet, &'static str)> {
    for (block, name) in V4_DENY {
        if let Ok(net) = block.parse::<Ipv4Net>() {
            if net.contains(&address) {
                return Err((IpNet::V4(net), name));
            }
        }
    }
    Ok(())
}

fn classify_v6(address: Ipv6Addr) -> Result<(), AddressRefusal> {
    for (block, name) in V6_DENY {
        if let Ok(net) = block.parse::<Ipv6Net>() {
            if net.contains(&address) {
                return Err(AddressRefusal {
                    address: IpAddr::V6(address),
                    range: IpNet::V6(net),
                    name,
                    carries: embedded_v4(address),
                });
            }
        }
    }
    match V6_GLOBAL_UNICAST.parse::<Ipv6Net>() {
        Ok(global) if global.contains(&address) => Ok(()),
        _ => Err(AddressRefusal {
            address: IpAddr::V6(address),
            range: V6_GLOBAL_UNICAST
                .parse()
                .unwrap_or(IpNet::V6(Ipv6Net::default())),
            name: "outside global unicast",
            carries: None,
        }),
    }
}

/// The IPv4 address an IPv6 transition form carries, for the reason text.
pub fn embedded_v4(address: Ipv6Addr) -> Option<Ipv4Addr> {
    let octets = address.octets();
    let segments = address.segments();
    let low32 = Ipv4Addr::new(octets[12], octets[13], octets[14], octets[15]);
    let within = |block: &str| {
        block
            .parse::<Ipv6Net>()
            .is_ok_and(|net| net.contains(&address))
    };
    if within("2002::/16") {
        Some(Ipv4Addr::new(octets[2], octets[3], octets[4], octets[5]))
    } else if within("2001::/32") {
        // Teredo: the client address is the low 32 bits, inverted.
        Some(Ipv4Addr::from(!u32::from(low32)))
    } else if within("64:ff9b:1::/48") {
        // RFC 6052 layout for a /48 prefix: bits 48..64 and 72..88.
        Some(Ipv4Addr::new(octets[6], octets[7], octets[9], octets[10]))
    } else if within("64:ff9b::/96") || within("::ffff:0:0:0/96") || within("::/96") {
        (segments[..6] != [0, 0, 0, 0, 0, 0] || u32::from(low32) > 1).then_some(low32)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (address, the block it must be refused for, or "" when allowed).
    /// Every block's first and last address and the neighbours just outside.
    const CASES: &[(&str, &str)] = &[
        // 0.0.0.0/8
        ("0.0.0.0", "0.0.0.0/8"),
        ("0.255.255.255", "0.0.0.0/8"),
        ("1.0.0.0", ""),
        // 10.0.0.0/8
        ("9.255.255.255", ""),
        ("10.0.0.0", "10.0.0.0/8"),
        ("10.255.255.255", "10.0.0.0/8"),
        ("11.0.0.0", ""),
        // 100.64.0.0/10
        ("100.63.255.255", ""),
        ("100.64.0.0", "100.64.0.0/10"),
        ("100.100.100.200", "100.64.0.0/10"),
        ("100.127.255.255", "100.64.0.0/10"),
        ("100.128.0.0", ""),
        // 127.0.0.0/8
        ("126.255.255.255", ""),
        ("127.0.0.0", "127.0.0.0/8"),
        ("127.0.0.1", "127.0.0.0/8"),
        ("127.255.255.255", "127.0.0.0/8"),
        ("128.0.0.0", ""),
        // 169.254.0.0/16
        ("169.253.255.255", ""),
        ("169.254.0.0", "169.254.0.0/16"),
        ("169.254.169.254", "169.254.0.0/16"),
        ("169.254.255.255", "169.254.0.0/16"),
        ("169.255.0.0", ""),
        // 172.16.0.0/12
        ("172.15.255.255", ""),
        ("172.16.0.0", "172.16.0.0/12"),
        ("172.31.255.255", "172.16.0.0/12"),
        ("172.32.0.0", ""),
        // 192.0.0.0/24 and 192.0.2.0/24
        ("191.255.255.255", ""),
        ("192.0.0.0", "192.0.0.0/24"),
        ("192.0.0.255", "192.0.0.0/24"),
        ("192.0.1.0", ""),
        ("192.0.2.0", "192.0.2.0/24"),
        ("192.0.2.255", "192.0.2.0/24"),
        ("192.0.3.0", ""),
        // 192.31.196.0/24
        ("192.31.195.255", ""),
        ("192.31.196.0", "192.31.196.0/24"),
        ("192.31.196.255", "192.31.196.0/24"),
        ("192.31.197.0", ""),
        // 192.52.193.0/24
        ("192.52.192.255", ""),
        ("192.52.193.0", "192.52.193.0/24"),
        ("192.52.193.255", "192.52.193.0/24"),
        ("192.52.194.0", ""),
        // 192.88.99.0/24
        ("192.88.98.255", ""),
        ("192.88.99.0", "192.88.99.0/24"),
        ("192.88.99.255", "192.88.99.0/24"),
        ("192.88.100.0", ""),
        // 192.168.0.0/16
        ("192.167.255.255", ""),
        ("192.168.0.0", "192.168.0.0/16"),
        ("192.168.255.255", "192.168.0.0/16"),
        ("192.169.0.0", ""),
        // 192.175.48.0/24
        ("192.175.47.255", ""),
        ("192.175.48.0", "192.175.48.0/24"),
        ("192.175.48.255", "192.175.48.0/24"),
        ("192.175.49.0", ""),
        // 198.18.0.0/15
        ("198.17.255.255", ""),
        ("198.18.0.0", "198.18.0.0/15"),
        ("198.19.255.255", "198.18.0.0/15"),
        ("198.20.0.0", ""),
        // 198.51.100.0/24
        ("198.51.99.255", ""),
        ("198.51.100.0", "198.51.100.0/24"),
        ("198.51.100.255", "198.51.100.0/24"),
        ("198.51.101.0", ""),
        // 203.0.113.0/24
        ("203.0.112.255", ""),
        ("203.0.113.0", "203.0.113.0/24"),
        ("203.0.113.255", "203.0.113.0/24"),
        ("203.0.114.0", ""),
        // 224.0.0.0/4, 240.0.0.0/4, broadcast
        ("223.255.255.255", ""),
        ("224.0.0.0", "224.0.0.0/4"),
        ("239.255.255.250", "224.0.0.0/4"),
        ("239.255.255.255", "224.0.0.0/4"),
        ("240.0.0.0", "240.0.0.0/4"),
        ("255.255.255.254", "240.0.0.0/4"),
        ("255.255.255.255", "255.255.255.255/32"),
        // Public IPv4 for contrast.
        ("8.8.8.8", ""),
        ("93.184.216.34", ""),
        // IPv6 outside 2000::/3 and its special blocks.
        ("::", "::/128"),
        ("::1", "::1/128"),
        ("::2", "::/96"),
        ("::7f00:1", "::/96"),
        ("::ffff:0:7f00:1", "::ffff:0:0:0/96"),
        ("64:ff9b::", "64:ff9b::/96"),
        ("64:ff9b::7f00:1", "64:ff9b::/96"),
        ("64:ff9b::a9fe:a9fe", "64:ff9b::/96"),
        ("64:ff9b::ffff:ffff", "64:ff9b::/96"),
        ("64:ff9b:1::", "64:ff9b:1::/48"),
        ("64:ff9b:1:7f00:0:100::", "64:ff9b:1::/48"),
        ("64:ff9c::1", "2000::/3"),
        ("100::", "100::/64"),
        ("100::ffff:ffff:ffff:ffff", "100::/64"),
        ("100:0:0:1::", "100:0:0:1::/64"),
        ("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"),
        ("2000::", ""),
        ("2001::", "2001::/32"),
        ("2001:0:4136:e378:8000:63bf:3f57:fdf2", "2001::/32"),
        ("2001:1::1", "2001::/23"),
        ("2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/23"),
        ("2001:200::", ""),
        ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", ""),
        ("2001:db8::", "2001:db8::/32"),
        ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::/32"),
        ("2001:db9::", ""),
        ("2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""),
        ("2002::", "2002::/16"),
        ("2002:7f00:1::", "2002::/16"),
        ("2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2002::/16"),
        ("2003::", ""),
        ("2620:4f:7fff:ffff:ffff:ffff:ffff:ffff", ""),
        ("2620:4f:8000::", "2620:4f:8000::/48"),
        ("2620:4f:8000:ffff:ffff:ffff:ffff:ffff", "2620:4f:8000::/48"),
        ("2620:4f:8001::", ""),
        ("3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""),
        ("3fff::", "3fff::/20"),
        ("3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff::/20"),
        ("3fff:1000::", ""),
        ("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""),
        ("4000::", "2000::/3"),
        ("5f00::", "5f00::/16"),
        ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"),
        ("fc00::", "fc00::/7"),
        ("fd00:ec2::254", "fc00::/7"),
        ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::/7"),
        ("fe00::", "2000::/3"),
        ("fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"),
        ("fe80::", "fe80::/10"),
        ("fe80::a9fe:a9fe", "fe80::/10"),
        ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::/10"),
        ("fec0::", "fec0::/10"),
        ("fec0::1", "fec0::/10"),
        ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fec0::/10"),
        ("ff00::", "ff00::/8"),
        ("ff02::1", "ff00::/8"),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ff00::/8"),
        ("2a00:1450:4001:81b::200e", ""),
    ];

    #[test]
    fn every_block_edge_and_neighbour() {
        assert!(CASES.len() >= 100, "{} cases", CASES.len());
        for (address, expected) in CASES {
            let address: IpAddr = address.parse().unwrap();
            let verdict = classify(address).map_err(|refusal| refusal.range.to_string());
            match *expected {
                "" => assert_eq!(verdict, Ok(()), "{address} must be allowed"),
                range => assert_eq!(verdict, Err(range.to_owned()), "{address}"),
            }
        }
    }

    #[test]
    fn every_ipv4_block_in_its_ipv6_spellings() {
        for (block, _) in V4_DENY {
            let net: Ipv4Net = block.parse().unwrap();
            for v4 in [net.network(), net.broadcast()] {
                let [a, b, c, d] = v4.octets();
                let mapped = v4.to_ipv6_mapped();
                let refusal = classify(IpAddr::V6(mapped)).unwrap_err();
                let direct = classify(IpAddr::V4(v4)).unwrap_err();
                assert_eq!(refusal.range, direct.range, "{mapped} is {v4}");
                let nat64 = Ipv6Addr::new(
                    0x64,
                    0xff9b,
                    0,
                    0,
                    0,
                    0,
                    u16::from_be_bytes([a, b]),
                    u16::from_be_bytes([c, d]),
                );
                let refusal = classify(IpAddr::V6(nat64)).unwrap_err();
                assert_eq!(refusal.carries, Some(v4), "{nat64}");
                let six_to_four = Ipv6Addr::new(
                    0x2002,
                    u16::from_be_bytes([a, b]),
                    u16::from_be_bytes([c, d]),
                    0,
                    0,
                    0,
                    0,
                    1,
                );
                let refusal = classify(IpAddr::V6(six_to_four)).unwrap_err();
                assert_eq!(refusal.carries, Some(v4), "{six_to_four}");
                let compatible = Ipv6Addr::new(
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    u16::from_be_bytes([a, b]),
                    u16::from_be_bytes([c, d]),
                );
                assert!(classify(IpAddr::V6(compatible)).is_err(), "{compatible}");
            }
        }
        // A mapped public address is judged as the public address.
        assert_eq!(classify("::ffff:8.8.8.8".parse().unwrap()), Ok(()));
    }

    #[test]
    fn reasons_read_plainly() {
        let refusal = classify("127.0.0.1".parse().unwrap()).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "127.0.0.1 is loopback [RFC 1122] (127.0.0.0/8)"
        );
        let refusal = classify("2002:a9fe:a9fe::".parse().unwrap()).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "2002:a9fe:a9fe:: is 6to4 [RFC 3056] (2002::/16) carrying 169.254.169.254"
        );
        let teredo = classify("2001:0:4136:e378:8000:63bf:3f57:fdf2".parse().unwrap()).unwrap_err();
        assert_eq!(teredo.carries, Some(Ipv4Addr::new(192, 168, 2, 13)));
        let local_nat64 = classify("64:ff9b:1:7f00:0:100::".parse().unwrap()).unwrap_err();
        assert_eq!(local_nat64.carries, Some(Ipv4Addr::new(127, 0, 0, 1)));
    }
}
