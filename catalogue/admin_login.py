"""The admin's login form, refusing a user name no account can have before any check."""

from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.validators import MaxLengthValidator


class StaffLoginForm(AdminAuthenticationForm):
    """Django's admin login form sets the user name's max_length after the field is made,
    so its length is never validated: a 300-character name reached authenticate() and
    django-axes then failed to store the attempt (a 500 on PostgreSQL). Here it is a
    form error, and no attempt is recorded for a name no account can have."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))
