//! One test per conformance check and backend, listed here by hand; a test
//! checks this list against the suite's own, so a check cannot be added
//! without a test (nor a test outlive its check).

use tabwright_tests::conformance;
use tabwright_tests::Backend;

async fn check(backend: Backend, name: &str) {
    let check = conformance::by_name(name).unwrap_or_else(|| panic!("no check named {name}"));
    // `run` accepts `Unsupported` only for a capability the backend lists.
    if let Err(why) = conformance::run(backend, &check).await {
        panic!("{name} on {}: {why}", backend.name());
    }
}

/// One test per check and backend: `conformance::cdp::history`,
/// `conformance::webdriver::history`, `conformance::firefox::history`.
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

        mod firefox {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::check(super::Backend::Firefox, stringify!($name)).await;
                }
            )+
        }

        const TESTED: &[&str] = &[$(stringify!($name)),+];
    };
}

suite!(
    lazy_start,
    navigate_reports_status_and_final_url,
    navigate_failure_names_the_net_error,
    eval_returns_json,
    eval_exception_carries_its_message,
    eval_across_a_navigation,
    click_and_type,
    missing_and_hidden_elements,
    key_presses,
    screenshots,
    screenshots_are_fresh,
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
    a_crashed_tab_is_left,
    close_ends_everything,
    drop_ends_everything,
    close_is_idempotent,
    screencast,
    downloads_are_refused,
    dialogs_never_block,
    hover_and_wheel,
    devtools_and_network_log,
    preloads_reach_every_document,
    paint_probe_pictures_the_paint,
    hand_over_gives_closed_roots_and_the_tree,
);

#[test]
fn every_check_has_a_test_and_every_test_a_check() {
    let checks: Vec<&str> = conformance::all().iter().map(|check| check.name).collect();
    let untested: Vec<&&str> = checks
        .iter()
        .filter(|name| !TESTED.contains(name))
        .collect();
    let orphaned: Vec<&&str> = TESTED
        .iter()
        .filter(|name| !checks.contains(name))
        .collect();
    assert!(untested.is_empty(), "checks without a test: {untested:?}");
    assert!(orphaned.is_empty(), "tests without a check: {orphaned:?}");
}
