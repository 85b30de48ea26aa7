//! Network layer: packets, links, queues (drop-tail, RED), impairments, routing, topologies
