//! This machine's own addresses. A service bound to 0.0.0.0 answers on every
//! one of them, public ones included, so they are refused like loopback.

use std::net::IpAddr;

/// Whether `address` is assigned to one of this machine's interfaces. Read
/// afresh each time (a few microseconds): interfaces come and go.
pub(crate) fn is_own_address(address: IpAddr) -> bool {
    let address = address.to_canonical();
    let Ok(interfaces) = nix::ifaddrs::getifaddrs() else {
        return false;
    };
    interfaces
        .filter_map(|interface| interface.address)
        .filter_map(|storage| {
            if let Some(v4) = storage.as_sockaddr_in() {
                Some(IpAddr::V4(v4.ip()))
            } else {
                storage.as_sockaddr_in6().map(|v6| IpAddr::V6(v6.ip()))
            }
        })
        .any(|own| own.to_canonical() == address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_ours() {
        assert!(is_own_address("127.0.0.1".parse().unwrap()));
        assert!(!is_own_address("192.0.2.77".parse().unwrap()));
    }
}
