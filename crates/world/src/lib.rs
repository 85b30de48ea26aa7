//! Builds a World from a Scenario and runs it: the event loop tying net, tcp, traffic and metrics
