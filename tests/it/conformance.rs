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

suite!(
    lazy_start,
    navigate_reports_status_and_final_url,
    navigate_failure_names_the_net_error,
    eval_returns_json,
    eval_exception_carries_its_message,
    click_and_type,
    missing_and_hidden_elements,
    key_presses,
    screenshots,
    text_and_value,
    wait_for_present_and_visible,
    history,
    tabs,
    popups_become_tabs,
    viewport,
    console_and_page_errors,
    ordinary_chrome,
    calls_are_serialised,
    never_loading_page_times_out,
    spinning_script_times_out,
    browser_gone_then_fresh,
    close_ends_everything,
    drop_ends_everything,
    close_is_idempotent,
    screencast,
    downloads_are_refused,
);
