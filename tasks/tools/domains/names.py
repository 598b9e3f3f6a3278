"""Name pools shared by the built-in domains' seeded data generators."""

FIRST_NAMES = ("Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Jade", "Kofi",
               "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor",
               "Wen", "Ximena", "Yusuf", "Zara", "Aiko", "Bilal", "Clara", "Dev")
LAST_NAMES = ("Okafor", "Silva", "Nguyen", "Haddad", "Kowalski", "Moreau", "Tanaka", "Ibrahim", "Larsen",
              "Patel", "Rossi", "Schmidt", "Alvarez", "Kim", "Novak", "Osei", "Fischer", "Ahmed", "Berg", "Costa")
CITIES = (("Austin", "TX", "78701"), ("Denver", "CO", "80202"), ("Portland", "OR", "97205"),
          ("Columbus", "OH", "43215"), ("Raleigh", "NC", "27601"), ("Madison", "WI", "53703"),
          ("Tucson", "AZ", "85701"), ("Boise", "ID", "83702"))
STREETS = ("Maple Ave", "Oak St", "Cedar Ln", "Pine Rd", "Elm St", "Birch Way", "Willow Dr", "Spruce Ct")
