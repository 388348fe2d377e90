// Stand-in for EventBroadcast's Channel, which ChannelIndex stores only as a pointer.
final class Channel {}
