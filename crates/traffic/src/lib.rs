//! Traffic sources: bulk and finite transfers, CBR, web sessions
