import EventCore

/// One task waiting in ``NotificationReceiver/verified(after:isolation:)-86agy`` or its bounded
/// form: the first outcome to arrive (the completion, the task's cancellation, the timeout)
/// and the continuation it resumes.
typealias VerifiedWait = OutcomeSlot<Void>
