"""The league's pages, split as the services are: competitions (the club page, a
competition, its rounds and matches, the organiser's result forms), confirmations (the
pairs' links), ceros (a tournament a N ceros), documents (import), players (ratings),
leaders (what the hands say) and screen (the bar's TV and the group-chat card); base
holds what they share."""
