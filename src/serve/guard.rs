//! Request guards that run before any endpoint: which `Host` names are
//! served, that a POST carries JSON, and how an `Authorization` header is
//! read.
//!
//! The first two stop a web page from using a visitor's browser against a
//! server on their machine: DNS rebinding reaches a loopback server under a
//! foreign host name, and a cross-origin form may POST `text/plain` without
//! a CORS preflight. Refusing both closes those doors even without an API key.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// Which `Host` header values are served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostPolicy {
    /// Any host name (the server listens beyond loopback and no list was given).
    Any,
    /// Loopback names (`localhost`, `127.x.y.z`, `[::1]`) and these, any port.
    Listed(Vec<String>),
}

impl HostPolicy {
    /// The policy for a server bound to `bound`: `allowed` (from
    /// `--allowed-hosts`) widens the loopback names; `*` in it allows any
    /// host. Without a list, a loopback-bound server serves loopback names
    /// only and any other server serves any name.
    pub fn for_listener(bound: SocketAddr, allowed: Option<&[String]>) -> Self {
        match allowed {
            Some(list) if list.iter().any(|h| h == "*") => HostPolicy::Any,
            Some(list) => HostPolicy::Listed(list.iter().map(|h| h.to_ascii_lowercase()).collect()),
            None if bound.ip().is_loopback() => HostPolicy::Listed(Vec::new()),
            None => HostPolicy::Any,
        }
    }

    /// Whether a request with this `Host` header value is served.
    pub fn allows(&self, host: &str) -> bool {
        let HostPolicy::Listed(extra) = self else {
            return true;
        };
        let name = host_name(host).to_ascii_lowercase();
        is_loopback_name(&name) || extra.contains(&name)
    }
}

/// The name part of a `Host` value: `[::1]:8080` -> `[::1]`, `a.b:80` -> `a.b`.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

fn is_loopback_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Middleware: answers 403 to a request whose `Host` the policy refuses
/// (a request without `Host`, possible in HTTP/1.0, is refused too when
/// names are restricted).
pub async fn check_host(
    State(policy): State<Arc<HostPolicy>>,
    req: Request,
    next: Next,
) -> Response {
    if *policy == HostPolicy::Any {
        return next.run(req).await;
    }
    // HTTP/2 carries the host in the URI's authority instead of a header.
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()));
    match host {
        Some(h) if policy.allows(h) => next.run(req).await,
        _ => refusal(
            StatusCode::FORBIDDEN,
            "host_not_allowed",
            "This server does not serve this Host name; start it with \
             `--allowed-hosts NAME` to serve it.",
        ),
    }
}

/// Middleware: a POST must say its body is JSON (`Content-Type:
/// application/json`, parameters such as `charset` allowed); anything else
/// is answered 415 before the body is read.
pub async fn require_json(req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
    if is_json {
        next.run(req).await
    } else {
        refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "The request body must be JSON, sent with `Content-Type: application/json`.",
        )
    }
}

/// The key of an `Authorization` header value of the Bearer scheme; the
/// scheme name is case-insensitive (RFC 7235), the key is taken as sent.
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|key| !key.is_empty())
}

fn refusal(status: StatusCode, code: &'static str, message: &str) -> Response {
    ApiError {
        status,
        message: message.into(),
        kind: "invalid_request_error",
        param: None,
        code: Some(code),
        retry_after: None,
    }
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback_only() -> HostPolicy {
        HostPolicy::for_listener("127.0.0.1:8080".parse().unwrap(), None)
    }

    #[test]
    fn a_loopback_bound_server_serves_loopback_names_with_any_port() {
        let p = loopback_only();
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1",
            "127.5.6.7:1",
            "[::1]:8080",
            "[::1]",
            "api.localhost:9",
        ] {
            assert!(p.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.1",
            "localhost.evil.example",
            "[::2]:80",
            "",
        ] {
            assert!(!p.allows(host), "{host}");
        }
    }

    #[test]
    fn allowed_hosts_widen_the_loopback_names_and_a_star_allows_all() {
        let bound = "127.0.0.1:8080".parse().unwrap();
        let p = HostPolicy::for_listener(bound, Some(&["Box.lan".to_string()]));
        assert!(p.allows("box.lan:8080") && p.allows("localhost") && !p.allows("other.lan"));
        let any = HostPolicy::for_listener(bound, Some(&["*".to_string()]));
        assert!(any.allows("anything.example"));
    }

    #[test]
    fn a_server_bound_beyond_loopback_serves_any_name_unless_listed() {
        let bound = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(HostPolicy::for_listener(bound, None), HostPolicy::Any);
        let p = HostPolicy::for_listener(bound, Some(&["a.lan".to_string()]));
        assert!(p.allows("a.lan") && !p.allows("b.lan"));
    }

    #[test]
    fn the_bearer_scheme_is_matched_without_regard_to_case() {
        assert_eq!(bearer_token("Bearer k1"), Some("k1"));
        assert_eq!(bearer_token("bearer k1"), Some("k1"));
        assert_eq!(bearer_token("BEARER  k1 "), Some("k1"));
        assert_eq!(bearer_token("Basic k1"), None);
        assert_eq!(bearer_token("Bearer"), None);
        assert_eq!(bearer_token("Bearer "), None);
    }
}
