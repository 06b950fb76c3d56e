//! The input rules the UI shares: every case of `fixtures/validation-cases.json`, read into its
//! operation's request type, gives exactly the listed field messages from `validate()`. The UI
//! runs the same table against its own checks (ui/src/lib/validate.test.ts), so both say the
//! same words.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use sightline_api::request::{
    AiSearchRequest, ForecastRequest, ForecastStatusRequest, LinksTwitterRequest, LinksWebRequest,
    TwitterPostRequest, TwitterPostUserRequest, TwitterRepliesPostRequest, TwitterRepliesRequest,
    TwitterRetweetersRequest, TwitterSearchRequest, TwitterTrendsRequest, TwitterUrlsRequest,
    TwitterUserPostsRequest, WebCrawlRequest, WebSearchRequest,
};
use sightline_api::{ApiRequest, Operation};

#[derive(Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    operation: String,
    request: Value,
    errors: BTreeMap<String, Messages>,
}

/// One message for a field, or several in order.
#[derive(Deserialize)]
#[serde(untagged)]
enum Messages {
    One(String),
    Many(Vec<String>),
}

type ByField = BTreeMap<String, Vec<String>>;

fn table() -> Table {
    serde_json::from_str(include_str!("fixtures/validation-cases.json"))
        .expect("validation-cases.json is a table of cases")
}

fn expected(case: &Case) -> ByField {
    case.errors
        .iter()
        .map(|(field, messages)| {
            let list = match messages {
                Messages::One(message) => vec![message.clone()],
                Messages::Many(list) => list.clone(),
            };
            (field.clone(), list)
        })
        .collect()
}

fn errors_of<R: ApiRequest + DeserializeOwned>(request: &Value) -> Result<ByField, String> {
    let request: R = serde_json::from_value(request.clone()).map_err(|e| e.to_string())?;
    let mut by_field = ByField::new();
    for error in request.validate().err().unwrap_or_default() {
        by_field.entry(error.field).or_default().push(error.message);
    }
    Ok(by_field)
}

/// The request type of each operation, by its stable name.
fn validate(operation: &str, request: &Value) -> Result<ByField, String> {
    match operation {
        "ai_search" => errors_of::<AiSearchRequest>(request),
        "links_web" => errors_of::<LinksWebRequest>(request),
        "links_twitter" => errors_of::<LinksTwitterRequest>(request),
        "twitter_search" => errors_of::<TwitterSearchRequest>(request),
        "twitter_urls" => errors_of::<TwitterUrlsRequest>(request),
        "twitter_post" => errors_of::<TwitterPostRequest>(request),
        "twitter_post_user" => errors_of::<TwitterPostUserRequest>(request),
        "twitter_retweeters" => errors_of::<TwitterRetweetersRequest>(request),
        "twitter_user_posts" => errors_of::<TwitterUserPostsRequest>(request),
        "twitter_replies" => errors_of::<TwitterRepliesRequest>(request),
        "twitter_replies_post" => errors_of::<TwitterRepliesPostRequest>(request),
        "twitter_trends" => errors_of::<TwitterTrendsRequest>(request),
        "web_search" => errors_of::<WebSearchRequest>(request),
        "web_crawl" => errors_of::<WebCrawlRequest>(request),
        "forecast" => errors_of::<ForecastRequest>(request),
        "forecast_status" => errors_of::<ForecastStatusRequest>(request),
        other => Err(format!("no request type for the operation {other:?}")),
    }
}

#[test]
fn every_case_gives_exactly_its_field_messages() {
    let mut failures = Vec::new();
    for case in table().cases {
        assert!(
            Operation::from_name(&case.operation).is_some(),
            "{}: {:?} is not an operation",
            case.name,
            case.operation
        );
        let want = expected(&case);
        match validate(&case.operation, &case.request) {
            Ok(got) if got == want => {}
            Ok(got) => failures.push(format!(
                "{} ({})\n  expected {want:#?}\n  validate() gave {got:#?}",
                case.name, case.operation,
            )),
            Err(problem) => failures.push(format!("{} ({}): {problem}", case.name, case.operation)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_operation_has_a_valid_case_and_an_invalid_one() {
    let cases = table().cases;
    for operation in Operation::ALL {
        let of_op = || cases.iter().filter(|c| c.operation == operation.as_str());
        assert!(
            of_op().any(|c| c.errors.is_empty()),
            "{operation}: add a valid request to validation-cases.json"
        );
        assert!(
            of_op().any(|c| !c.errors.is_empty()),
            "{operation}: add a request that breaks a rule to validation-cases.json"
        );
    }
}
