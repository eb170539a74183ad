//! One test per conformance check and backend.

use tabwright_tests::conformance::{self, Outcome};
use tabwright_tests::Backend;

async fn check(backend: Backend, name: &str) {
    let check = conformance::by_name(name).unwrap_or_else(|| panic!("no check named {name}"));
    match conformance::run(backend, &check).await {
        Ok(Outcome::Pass) => {}
        Ok(Outcome::Unsupported(reason)) => {
            let capabilities = backend.driver(Default::default()).capabilities();
            assert!(
                !capabilities.unsupported.is_empty(),
                "{name} on {}: reported unsupported ({reason}) by a backend that claims everything",
                backend.name()
            );
        }
        Err(why) => panic!("{name} on {}: {why}", backend.name()),
    }
}

/// One test per check and backend: `conformance::cdp::history`,
/// `conformance::webdriver::history`; and a test that no check is left out.
macro_rules! suite {
    ($($name:ident),+ $(,)?) => {
        mod cdp {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::check(super::Backend::Cdp, stringify!($name)).await;
                }
            )+
        }

        mod webdriver {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::check(super::Backend::WebDriver, stringify!($name)).await;
                }
            )+
        }

        #[test]
        fn every_check_has_a_test() {
            let tested = [$(stringify!($name)),+];
            for check in tabwright_tests::conformance::all() {
                assert!(tested.contains(&check.name), "check {} has no test", check.name);
            }
        }
    };
}

tabwright_tests::for_each_check!(suite);
