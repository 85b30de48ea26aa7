//! No recovery phase: segments loss detection declares lost are resent as
//! the window allows, new data after them (TCP-PR, whose timers decide
//! every loss and whose window rules are its own). Nothing lives here: the
//! sender's transmit loop resends segments marked lost whenever this is the
//! recovery; the file keeps the folder's one-mechanism-per-file map whole.
