// A file that imports Combine and Events names the token and the bag by their Events aliases.
import Combine
import Events

final class Downloads {
  private var subscriptions = Set<EventSubscription>()
  private var cancellables = Set<AnyCancellable>()
  private let bag = EventSubscriptionBag()

  init(progress: Event<Double>) {
    progress.subscribe { fraction in print(fraction) }.store(in: &subscriptions)
    progress.subscribe { fraction in print(fraction) }.store(in: bag)
    AnyCancellable {}.store(in: &cancellables)
  }

}
