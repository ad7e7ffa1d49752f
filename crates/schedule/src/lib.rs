//! Time rules of schedules.
