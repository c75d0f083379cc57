//! Command-line numbers of the examples (included with `#[path]`): one that does not parse is
//! an error, not the default (`2,500` games would otherwise run another count than asked).

/// Argument `i` as a non-negative integer, or `None` when it is absent.
pub fn optional(args: &[String], i: usize, name: &str) -> Result<Option<u64>, pachisi::Error> {
    args.get(i)
        .map(|s| {
            s.parse().map_err(|_| {
                pachisi::Error::InvalidArgument(format!(
                    "{name} must be a non-negative integer, got `{s}`"
                ))
            })
        })
        .transpose()
}

/// Argument `i` as a non-negative integer, `default` when it is absent.
pub fn number(args: &[String], i: usize, name: &str, default: u64) -> Result<u64, pachisi::Error> {
    Ok(optional(args, i, name)?.unwrap_or(default))
}

/// Argument `i` as a count (a `usize`), `default` when it is absent.
#[allow(dead_code)] // (not every example counts)
pub fn count(
    args: &[String],
    i: usize,
    name: &str,
    default: usize,
) -> Result<usize, pachisi::Error> {
    usize::try_from(number(args, i, name, default as u64)?)
        .map_err(|_| pachisi::Error::InvalidArgument(format!("{name} is too large")))
}
