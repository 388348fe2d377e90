import EventTesting
import Events
import Foundation

extension WhatRunsWhere {
  /// The recorders: what they hold when the triggering call returns.
  @MainActor static var recorderCases: [WhereCase] {
    [
      WhereCase(
        id: "testing.eventRecorder", module: "EventTesting",
        form: "`EventRecorder(event)`: the payload is in `values` when `post` returns",
        writtenIn: "—", delivery: "—", trigger: "`post`"
      ) { probe in
        let event = Event<Int>()
        let recorder = EventRecorder(event)
        return Wiring(keep: [recorder]) {
          _ = event.post(1)
          if recorder.values == [1] { probe.hit() }
        }
      },
      WhereCase(
        id: "testing.notificationRecorder", module: "EventTesting",
        form: "`NotificationRecorder(center, name:)`: the notification is in `notifications` "
          + "when `post` returns",
        writtenIn: "—", delivery: "—", trigger: "`center.post`"
      ) { probe in
        let center = NotificationCenter()
        let name = fresh()
        let recorder = NotificationRecorder(center, name: name)
        return Wiring(keep: [center, recorder]) {
          center.post(name: name, object: nil)
          if recorder.notifications.count == 1 { probe.hit() }
        }
      },
    ]
  }
}
