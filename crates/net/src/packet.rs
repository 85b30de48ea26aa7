//! Packets live in a pool and are addressed by index, so queues and links
//! move 4-byte ids instead of whole packets, and a packet slot is reused
//! without touching the allocator once the pool has grown to the peak number
//! of packets in flight.

/// A node of the topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeId(pub u32);

/// One direction of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LinkId(pub u32);

/// Index of a packet in its [`Pool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketId(pub u32);

/// A packet: network header plus a payload the network never looks into.
#[derive(Clone, Copy, Debug, Default)]
pub struct Packet<P> {
    pub src: NodeId,
    pub dst: NodeId,
    /// Flow (or traffic source) the packet belongs to.
    pub flow: u32,
    /// Bytes on the wire, headers included.
    pub size: u32,
    /// Multipath route (entry << 16 | path) chosen at the source, or
    /// u32::MAX for hop-by-hop shortest-path routing. Set by the network.
    pub path: u32,
    /// Hops taken along `path`.
    pub hop: u16,
    pub payload: P,
}

impl<P> Packet<P> {
    /// A packet from `src` to `dst` routed by the network's tables.
    pub fn new(src: NodeId, dst: NodeId, flow: u32, size: u32, payload: P) -> Self {
        Packet {
            src,
            dst,
            flow,
            size,
            path: u32::MAX,
            hop: 0,
            payload,
        }
    }
}

/// A free-list pool of packets.
pub struct Pool<P> {
    slots: Vec<Packet<P>>,
    free: Vec<u32>,
}

impl<P: Copy + Default> Default for Pool<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Copy + Default> Pool<P> {
    pub fn new() -> Self {
        Pool {
            slots: Vec::with_capacity(1024),
            free: Vec::with_capacity(1024),
        }
    }
    #[inline]
    pub fn alloc(&mut self, p: Packet<P>) -> PacketId {
        if let Some(i) = self.free.pop() {
            self.slots[i as usize] = p;
            PacketId(i)
        } else {
            self.slots.push(p);
            PacketId(self.slots.len() as u32 - 1)
        }
    }
    #[inline]
    pub fn free(&mut self, id: PacketId) {
        self.free.push(id.0);
    }
    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet<P> {
        &self.slots[id.0 as usize]
    }
    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet<P> {
        &mut self.slots[id.0 as usize]
    }
    /// Packets currently allocated.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
    /// Largest number of packets ever allocated at once.
    pub fn capacity_used(&self) -> usize {
        self.slots.len()
    }
}
