import Events

print("events-demo")
