"""Built-in lists the ``name`` and ``sample`` parameter kinds draw from.

Names hold only letters, spaces, hyphens and full stops, so they are safe inside a shell
word in single quotes, a sed replacement and a CSV field.
"""

from __future__ import annotations

GIVEN = (
    "Ada", "Amara", "Anika", "Bea", "Carlos", "Chidi", "Dara", "Elif", "Emeka", "Farah",
    "Felix", "Greta", "Hana", "Hugo", "Ines", "Ivan", "Jonas", "Kai", "Keiko", "Lars",
    "Leila", "Luca", "Maya", "Mateo", "Nadia", "Nikhil", "Noor", "Olga", "Omar", "Priya",
    "Rafael", "Rosa", "Samir", "Sofia", "Tariq", "Tomas", "Uma", "Vera", "Wen", "Yusuf",
    "Zara", "Zoe",
)

SURNAMES = (
    "Abara", "Bergstrom", "Castillo", "Dimitrov", "Eriksen", "Fontaine", "Garcia", "Haddad",
    "Ishikawa", "Jovanovic", "Kowalski", "Lindqvist", "Mensah", "Nakamura", "Okafor",
    "Petrov", "Quispe", "Rahman", "Santos", "Takahashi", "Ueda", "Varga", "Wojcik", "Yilmaz",
    "Zhang", "Moreau", "Novak", "Osei", "Patel", "Romero", "Schmidt", "Tanaka", "Bianchi",
    "Costa", "Dubois", "Horvat", "Keller", "Lopez", "Murphy", "Silva",
)

COMPANIES = (
    "Okafor Logistics Ltd", "Bergstrom Timber AB", "Halyard Marine Supply", "Northwind Rail",
    "Bluefin Analytics", "Copperleaf Bakery", "Granite Peak Builders", "Lumen Optics GmbH",
    "Meridian Freight", "Nimbus Cloudworks", "Orchard Lane Foods", "Pinecrest Dental",
    "Quayside Hotels", "Redwood Legal Services", "Saltmarsh Brewing", "Tessellate Design",
    "Umber Textiles", "Vantage Robotics", "Willow Creek Farms", "Zephyr Airlines",
    "Atlas Printworks", "Beacon Solar", "Cobalt Mining Co", "Driftwood Studios",
    "Evergreen Pharmacy", "Foxglove Publishing", "Harbour Lights Theatre", "Ironbridge Steel",
    "Juniper Health", "Kestrel Security", "Larkspur Florists", "Moonstone Jewellers",
)

CITIES = (
    "Aberdeen", "Antwerp", "Bergen", "Bologna", "Bristol", "Cork", "Dresden", "Gdansk",
    "Ghent", "Graz", "Krakow", "Leeds", "Lille", "Lisbon", "Lyon", "Malmo", "Nantes",
    "Porto", "Riga", "Rotterdam", "Seville", "Tallinn", "Turin", "Valencia",
)

LISTS: dict[str, tuple[str, ...]] = {
    "given": GIVEN,
    "surname": SURNAMES,
    "company": COMPANIES,
    "city": CITIES,
}

#: Kinds the ``name`` parameter accepts: the lists above plus ``person`` (given + surname).
NAME_KINDS = ("person", *LISTS)
