//! What SIGINT and SIGTERM do: the process removes the temporary and lock files of its
//! writes in progress ([`quasar_file::remove_temps`]) and exits with 128 + the
//! signal's number; a command that stops gracefully (solve, which saves its checkpoint)
//! asks for a flag instead, raised by the first signal, and the second signal exits.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag and signal number of a command that stops gracefully.
type Graceful = (Arc<AtomicBool>, Arc<AtomicUsize>);

static GRACEFUL: OnceLock<Graceful> = OnceLock::new();

/// Starts the thread that handles both signals (signal-hook's iterator: the handler only
/// writes to a pipe, and the thread may then take locks and remove files, which a signal
/// handler may not).
pub fn install() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    if let Some((raised, which)) = GRACEFUL.get() {
                        if !raised.load(Ordering::SeqCst) {
                            which.store(sig as usize, Ordering::SeqCst);
                            raised.store(true, Ordering::SeqCst);
                            continue;
                        }
                    }
                    quasar_file::remove_temps();
                    std::process::exit(128 + sig);
                }
            })?;
    }
    Ok(())
}

/// Asks that the first signal raise the returned flag (and store its number) instead of
/// ending the process.
pub fn graceful() -> (Arc<AtomicBool>, Arc<AtomicUsize>) {
    let g = GRACEFUL.get_or_init(|| (Arc::default(), Arc::default()));
    (Arc::clone(&g.0), Arc::clone(&g.1))
}
