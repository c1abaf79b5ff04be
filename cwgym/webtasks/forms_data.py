"""Word pools of the form kinds: dishes for order-food, cities and airlines for
buy-ticket, and the mail domains of multi-layouts' e-mail addresses."""

from __future__ import annotations

#: Dishes a food order form offers: short enough for a 160-pixel select.
DISHES = (
    "Pizza", "Pasta", "Burger", "Salad", "Soup", "Curry", "Tacos", "Sushi", "Ramen", "Paella",
    "Risotto", "Falafel", "Omelette", "Lasagne", "Noodles", "Kebab", "Chili", "Stew",
)

#: Cities a flight search offers.
CITIES = (
    "Accra", "Athens", "Berlin", "Bogota", "Cairo", "Dakar", "Delhi", "Dublin", "Hanoi", "Lima",
    "Lisbon", "London", "Madrid", "Manila", "Oslo", "Paris", "Quito", "Rome", "Seoul", "Sydney",
    "Tokyo", "Vienna",
)

#: Airlines of the flight results (short: a results row is 160 pixels wide), with their codes.
AIRLINES = (
    ("Aero", "AE"), ("Bluejet", "BJ"), ("Condor", "CD"), ("Delta", "DL"), ("Eagle", "EG"),
    ("Falcon", "FC"), ("Gull", "GL"), ("Heron", "HR"), ("Ibis", "IB"), ("Kite", "KT"),
)

#: Mail domains of the e-mail addresses the form kinds ask for.
MAIL_DOMAINS = ("mail.com", "post.net", "inbox.org", "web.de", "letter.io")
