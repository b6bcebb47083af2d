// Flows shipped by this deployment.
